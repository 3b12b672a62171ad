//! Every word the app says, in one place per language: `en.rs` and `ja.rs`.
//!
//! Plain labels are fields of [`Words`]; a missing field in either language
//! is a compile error, and `tests::japanese_is_really_japanese` fails on a
//! label left in English. Sentences with facts in them (narration, reasons)
//! are methods of [`Speak`], implemented once per language.

pub mod en;
pub mod ja;

use crate::check::Invariant;
use crate::protocol::paxos::Ballot;
use crate::viz::narrate::Say;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

/// The words of one lesson (its structure is `scenario::lessons`).
#[derive(Debug)]
pub struct LessonText {
    pub id: &'static str,
    pub title: &'static str,
    /// One line under the title in the lesson list.
    pub summary: &'static str,
    pub steps: &'static [StepText],
}

/// The words of one step. Fields a step's stage does not use stay empty.
#[derive(Debug)]
pub struct StepText {
    pub title: &'static str,
    /// The explanation, in short paragraphs separated by blank lines.
    pub body: &'static str,
    /// "What to watch" for a scenario on stage.
    pub watch: &'static str,
    /// A predict-then-watch question, its options, and the explanation shown
    /// once the run has revealed the answer.
    pub question: &'static str,
    pub options: &'static [&'static str],
    pub explain: &'static str,
    /// Labels a figure or the latency table needs, in the order it uses them.
    pub labels: &'static [&'static str],
}

impl StepText {
    pub const EMPTY: StepText = StepText {
        title: "",
        body: "",
        watch: "",
        question: "",
        options: &[],
        explain: "",
        labels: &[],
    };
}

/// In the split page each language's lesson texts are a part of their own
/// (`ui::parts`), installed here when they arrive: a reader fetches the
/// texts of one language, not of both.
#[cfg(feature = "split")]
static LESSON_TEXTS: [std::sync::OnceLock<&'static [LessonText]>; 2] =
    [std::sync::OnceLock::new(), std::sync::OnceLock::new()];

impl Lang {
    /// The lessons' words in this language (none yet in the split page
    /// before their part has come: `lessons_here`).
    pub fn lessons(self) -> &'static [LessonText] {
        #[cfg(feature = "split")]
        return LESSON_TEXTS[self as usize].get().copied().unwrap_or(&[]);
        #[cfg(not(feature = "split"))]
        match self {
            Lang::En => en::lessons::LESSONS,
            Lang::Ja => ja::lessons::LESSONS,
        }
    }

    /// Whether `lessons` has this language's texts.
    pub fn lessons_here(self) -> bool {
        #[cfg(feature = "split")]
        return LESSON_TEXTS[self as usize].get().is_some();
        #[cfg(not(feature = "split"))]
        true
    }

    /// Called by the language's part when it arrives (`ui::parts`: only
    /// each language's split point names its texts, so each goes into its
    /// own chunk).
    #[cfg(feature = "split")]
    pub fn install_lessons(self, texts: &'static [LessonText]) {
        let _ = LESSON_TEXTS[self as usize].set(texts);
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }
    pub fn from_code(code: &str) -> Option<Lang> {
        match code.get(..2)?.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "ja" => Some(Lang::Ja),
            _ => None,
        }
    }
    pub fn words(self) -> &'static Words {
        match self {
            Lang::En => &en::WORDS,
            Lang::Ja => &ja::WORDS,
        }
    }
    pub fn speak(self) -> &'static dyn Speak {
        match self {
            Lang::En => &en::En,
            Lang::Ja => &ja::Ja,
        }
    }
    /// The sentences only the parts fetched later use (`Tell`): a trait
    /// object of their own, made only where they are said, so that none of
    /// them is in the first load.
    pub fn tell(self) -> &'static dyn Tell {
        match self {
            Lang::En => &en::En,
            Lang::Ja => &ja::Ja,
        }
    }
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Ja,
            Lang::Ja => Lang::En,
        }
    }
}

macro_rules! words {
    ($(#[$doc:meta])* $struct:ident; $($name:ident),* $(,)?) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $struct { $(pub $name: &'static str,)* }
        impl $struct {
            /// Every label with its field name (for completeness tests).
            pub fn entries(&self) -> Vec<(&'static str, &'static str)> {
                vec![$((stringify!($name), self.$name),)*]
            }
        }
    };
}

words!(
    /// The labels of the app that the first load shows (the top bar, the
    /// chamber, the transport, the page's own messages). The labels only
    /// the parts show are in [`More`], reached through `Deref`: `w.label`
    /// reads either.
    Words;
    app_title,
    retry,
    readers_unavailable,
    tagline,
    press_space,
    tap_play,
    // transport
    play,
    replay,
    pause,
    step_back,
    step_forward,
    to_start,
    to_end,
    speed,
    scrubber,
    seed,
    seed_apply,
    scenario,
    mutation,
    mutation_none,
    // views
    view_parliament,
    view_lease,
    view_side,
    view_ballots,
    view_lessons,
    views,
    language,
    present,
    exit_present,
    large_type,
    help,
    close,
    trace_hash,
    // legislators
    proposer,
    acceptor,
    learner,
    promised,
    last_vote,
    learned,
    nothing_yet,
    not_voted,
    away,
    away_hint,
    asleep,
    present_in_chamber,
    ink,
    back_notes,
    pencil,
    wants,
    decided_banner,
    two_decrees_banner,
    no_decision,
    // faults
    crash,
    restart,
    fault_recorded,
    // help keys
    // the model checker panel
    mc_title,
    qr_title,
    qr_button,
    whole_run,
    whole_run_hint,
    file_menu,
    export_trace,
    export_scenario,
    import_file,
    drop_hint,
    copy_link,
    export_view_svg,
    export_view_png,
    export_shiviz,
    export_mermaid,
    window_from,
    window_to,
    window_backwards,
    previous_kept,
    scenario_loaded,
    recorded_no_faults,
    fault_after_end,
    // transaction commit
    view_commit,
    // Multi-Paxos
    view_multi,
);

words!(
    /// The labels only the parts show (the side column, the labs, lessons,
    /// ballots, dialogs, the checker). The first load never reads them, so
    /// neither language's table is in it (issue 15): they are reached only
    /// through `Words`' `Deref`, which only the parts call. A label read by
    /// the first load belongs in `Words` (one here would bring both tables
    /// back: the bench's first-load figure shows it).
    More;
    share_ballots_title,
    share_ballots_hint,
    // the bar after an import or a link (`Piece::Status`)
    restore_previous,
    restored,
    reopen,
    // panels
    narration_title,
    narration_empty,
    narration_empty_touch,
    invariants_title,
    inspector_title,
    inspector_hint,
    spacetime_title,
    free,
    local_clock,
    pause_for,
    seconds,
    llm_stall_preset,
    propose,
    decree,
    partition_hint,
    group_a,
    group_b,
    one_way,
    heal,
    loss,
    latency_ms,
    apply,
    // invariants
    inv_ok,
    inv_broken,
    inv_jump,
    mc_intro,
    mc_acceptors,
    mc_proposers,
    mc_ballots,
    mc_crashes,
    mc_start,
    mc_cancel,
    mc_open,
    mc_opened,
    lease_settings,
    ttl_s,
    renew_s,
    workers,
    drift_ppm,
    design_in_loop,
    design_beside,
    design_none,
    llm_preset,
    preset_fast_api,
    preset_typical_llm,
    preset_stall,
    preset_timeout,
    preset_rate_limit,
    preset_refusal,
    preset_malformed_json,
    preset_outage,
    preset_flaky,
    preset_throttled,
    stall_s,
    apply_settings,
    inject_title,
    llm_stall_button,
    gc_pause_button,
    worker,
    compare_off,
    compare_fencing,
    compare_design,
    lane_store,
    store_replica_title,
    crash_store_master,
    restart_replica,
    lane_orders,
    lane_llm,
    believes,
    store_says,
    split_brain,
    stale_attempted,
    stale_rejected,
    stale_accepted,
    damaged_rows,
    split_time,
    failover,
    red_flags_title,
    flag_depends,
    flag_p99,
    flag_ttl,
    flag_drill,
    lease_rule_title,
    lease_rule,
    raised,
    quiet,
    charts_title,
    chart_latency,
    chart_sweep,
    chart_validity,
    run_sweep,
    download_svg,
    calls,
    seconds_log,
    ttl_axis,
    split_per_run,
    stale_per_run,
    remaining_s,
    time_axis,
    fencing_on,
    fencing_off,
    fence_article,
    fence_token,
    fence_off,
    fence_etcd,
    bump_on_renew,
    dead_writes,
    not_live,
    refused_by,
    refused_row,
    refused_other,
    refused_expired,
    sql_title,
    sql_intro,
    sql_leases,
    sql_orders,
    sql_none,
    sql_setup,
    sql_result,
    sql_clock,
    sql_etcd,
    waiting_llm,
    frozen,
    settings_refused,
    faults_in_scenario,
    remove_fault,
    no_faults,
    ballots_title,
    ballots_intro,
    ballot_number,
    voters,
    b3_column,
    add_ballot,
    figure1_reset,
    delete_row,
    conditions,
    latency_title,
    operation,
    real_time,
    scaled_time,
    llm_slider,
    lessons_title,
    step_of,
    answer_right,
    answer_wrong,
    watch_label,
    try_label,
    reveal,
    reveal_wait,
    done,
    start_lesson,
    continue_lesson,
    link_to_step,
    commit_compare,
    faster_option,
    crash_tm,
    restart_tm,
    rm_working,
    rm_uncertain,
    rm_committed,
    rm_aborted,
    node_down,
    uncertain_for,
    placement_separate,
    placement_colocated,
    costs_title,
    col_protocol,
    col_placement,
    col_messages,
    col_delays,
    col_writes,
    measured,
    paper,
    run_tally,
    costs_note_delays,
    costs_note_writes,
    mp_log_title,
    mp_log_hint,
    mp_slot,
    mp_leads,
    mp_runs,
    mp_follows,
    mp_lease_mark,
    mp_cut_off_mark,
    mp_clients,
    mp_waits,
    mp_heard,
    mp_lease_title,
    mp_lease_none,
    st_crashed,
    st_duplicate,
    st_in_flight,
    // after "+N" over a crowded live space-time diagram (its title)
    st_thinned,
    st_lost,
    st_partitioned,
    st_receiver_down,
    mp_paused,
    mp_session_ended,
    mp_verdict_refused,
    mp_sessions_title,
    mp_session,
    mp_session_safe,
    mp_session_jeopardy,
    mp_session_lost,
    mp_holds,
    mp_lock,
    mp_generation,
    mp_file_server,
    mp_file,
    mp_file_empty,
    mp_last_check,
    mp_verdict_accepted,
    mp_verdict_stale,
    mp_verdict_not_current,
    mp_legend_vote,
    mp_legend_ink,
    mp_legend_applied,
    mp_legend_noop,
    crash_leader,
    restart_replicas,
    cut_leader_off,
    cut_leader_off_hint,
    heal_network,
    mp_cut_nothing,
    mc_needs_crash,
    mp_write,
    mp_write_key,
    mp_write_value,
    mp_no_leader,
    compare,
    design,
    fencing,
    faults,
    count,
    partition,
    st_one_way,
    duplicate,
    quorum,
    next,
    back,
    copied,
    copy_failed,
    share_title,
    share_hint,
    share_step_hint,
    copy,
    key_space,
    key_arrows,
    key_shift_arrows,
    key_plus_minus,
    key_home_end,
    key_present,
    key_qr,
    qr_key_when,
    key_page,
    key_help,
    jump_back,
    jump_forward,
    slower,
    faster,
);

impl std::ops::Deref for Words {
    type Target = More;
    fn deref(&self) -> &More {
        if std::ptr::eq(self, &en::WORDS) {
            &en::MORE
        } else {
            &ja::MORE
        }
    }
}

impl Words {
    /// Every label of both tables with its field name (for completeness tests).
    pub fn all_entries(&self) -> Vec<(&'static str, &'static str)> {
        let mut all = self.entries();
        all.extend((**self).entries());
        all
    }
}

/// Sentences with facts in them.
pub trait Speak: Sync {
    /// A ballot as people write it: "(3,Γ)".
    fn ballot(&self, names: &[String], b: Ballot) -> String {
        format!(
            "({},{})",
            b.round,
            names.get(b.node.index()).map(String::as_str).unwrap_or("?")
        )
    }
    /// A duration in this language's units.
    fn duration(&self, us: u64) -> String;
    /// The pencil slip of a proposer.
    fn pencil(&self, names: &[String], p: &crate::viz::parliament::Pencil) -> String;
    /// A seed that cannot be used, with the reason.
    fn seed_error(&self, typed: &str) -> String;
    /// A duration field that is not a number of seconds.
    fn bad_duration(&self, typed: &str) -> String;
    /// A field that takes seconds from `lo` to `hi` (the TTL).
    fn seconds_between(&self, typed: &str, lo: &str, hi: &str) -> String;
    /// "t = 1.234 s"
    fn time_label(&self, us: u64) -> String {
        format!("t = {}", self.duration(us))
    }
    /// A built-in scenario's title and what to watch.
    fn scenario_title(&self, name: &str) -> String;
    fn mutation_title(&self, m: crate::check::Mutation) -> &'static str;
    /// The address's `#…` is neither a scenario link nor a lesson link.
    fn unknown_link(&self, fragment: &str) -> String;
    /// A short link's (`#run=`) name, seed or mutation does not exist, or a
    /// lesson link's lesson or step.
    fn bad_run_link(&self, bad: &BadRun) -> String;
    /// A part of the page (`what`: its tab's name) is being fetched.
    fn part_loading(&self, what: &str) -> String;
    /// The File menu's export formats could not be fetched.
    fn export_unavailable(&self) -> String;
    /// A part of the page could not be fetched.
    fn part_failed(&self, what: &str) -> String;
}

/// Sentences only the parts of the page fetched later use (narration, the
/// diagram's marks, the views' own words): a trait object of its own, so
/// that the first load's `dyn Speak` does not hold them (`Lang::tell`).
pub trait Tell: Speak {
    /// Why a file could not be imported.
    fn import_error(&self, e: &crate::trace::import::ImportError) -> String;
    /// Why a share link could not be opened.
    fn share_error(&self, e: &crate::trace::share::ShareError) -> String;
    /// How an imported trace was shown: 0 verified (hash), 1 its events
    /// differ from its scenario's (another version, or edited; first
    /// difference at `n`), 2 events only (`why`), 3 recorded live (`on`).
    fn import_status(&self, how: u8, n: usize, hash_or_why: &str) -> String;

    /// A Multi-Paxos command in a few words, for the log's cells and the
    /// clients' lines: `x=3`, `C1 lock 0`.
    fn mp_cmd(&self, names: &[String], c: &crate::protocol::multipaxos::Cmd) -> String;

    /// What a command returned, in a few words: `ok #3`, `g2`.
    fn mp_outcome(&self, o: &crate::protocol::multipaxos::Outcome) -> String;

    /// One narration line.
    fn say(&self, names: &[String], say: &Say) -> String;

    /// The name of an invariant, as a badge shows it.
    fn invariant(&self, inv: Invariant) -> &'static str;

    /// What the invariant means, in one sentence.
    fn invariant_meaning(&self, inv: Invariant) -> &'static str;

    /// A fault setting that cannot be used.
    fn setting_error(&self, what: &str, why: &str) -> String;

    /// Why a scenario cannot run (its checks' refusal).
    fn scenario_error(&self, e: &crate::scenario::ScenarioError) -> String;

    /// A decree that cannot be used.
    fn bad_decree(&self, e: &crate::protocol::value::BadValue) -> String;

    /// A partition needs two groups.
    fn partition_error(&self) -> String;

    /// A latency field that is not milliseconds or a range of them.
    fn bad_latency(&self, typed: &str) -> String;

    /// A percentage field that is not 0–100.
    fn bad_percent(&self, typed: &str) -> String;

    fn scenario_caption(&self, name: &str) -> &'static str;
    /// After a built-in's caption, when the run on screen is no longer it.
    fn caption_changed(&self) -> &'static str;

    /// The model checker panel: how big the search is (None: not measured).
    fn mc_size(&self, states: Option<usize>) -> String;

    fn mc_running(
        &self,
        states: usize,
        depth: u32,
        waiting: usize,
        rate: f64,
        left_s: Option<f64>,
    ) -> String;

    fn mc_clean(&self, states: usize, secs: f64, truncated: bool) -> String;

    fn mc_found(&self, invariant: &str, steps: usize, states: usize) -> String;

    fn mc_also(&self, invariant: &str, steps: usize) -> String;

    fn mc_cancelled(&self, states: usize) -> String;

    /// The checker's worker could not start or stopped (why, in its words).
    fn mc_failed(&self, why: &str) -> String;

    /// A field of the model checker's form (`field`: its label) holds what is
    /// not a whole number in its range.
    fn mc_bad_number(&self, field: &str, typed: &str, min: u32, max: u32) -> String;

    fn mc_scenario_name(&self, invariant: &str) -> String;

    /// A scaled duration ("2.8 hours", "≈951 years").
    fn human(&self, h: &crate::scenario::latency::HumanDuration) -> String;

    /// A real duration of the latency table ("0.5 ns").
    fn real(
        &self,
        a: &crate::scenario::latency::Amount<crate::scenario::latency::RealUnit>,
    ) -> String {
        use crate::scenario::latency::RealUnit::*;
        let unit = match a.unit {
            Nanosecond => "ns",
            Microsecond => "µs",
            Millisecond => "ms",
            Second => "s",
        };
        format!("{} {unit}", amount(a.mantissa, a.decimals))
    }

    /// A diagram mark's short label (None: not a mark).
    fn mark(&self, names: &[String], note: &crate::protocol::Note) -> Option<String>;

    /// The ballot explorer's findings, one sentence each.
    fn ballot_finding(&self, f: &BallotFinding) -> String;

    /// Why a ballot table's link (`#ballots=…`) cannot be read.
    fn ballots_link_error(&self, e: &crate::scenario::ballots::link::LinkError) -> String;

    /// A commit protocol by name: "Two-phase commit", "Paxos Commit, F = 1".
    fn commit_protocol(
        &self,
        algorithm: crate::protocol::commit::Algorithm,
        faster: bool,
        f: usize,
    ) -> String;

    /// The figures behind red flag `which` (0 depends, 1 p99, 2 TTL, 3 drill).
    fn flag_detail(&self, which: usize, f: &crate::check::red_flags::RedFlags) -> String;

    /// Which clause of the fenced `UPDATE` refused `writer`'s write with
    /// `epoch`: the row's fence (`row`), or the live lease (`lease`, judged
    /// at `now_us` on the storage's clock).
    fn refusal(&self, names: &[String], r: &Refused) -> String;
}

/// A refused write, as [`Speak::refusal`] explains it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    pub writer: crate::sim::NodeId,
    pub epoch: u64,
    pub reason: crate::protocol::storage::Refusal,
    pub row: u64,
    pub lease: Option<crate::protocol::lease::LeaseRow>,
    pub now_us: u64,
}

impl Refused {
    pub fn of(note: &crate::protocol::lease::LeaseNote) -> Option<Refused> {
        match *note {
            crate::protocol::lease::LeaseNote::WriteRejected {
                writer,
                epoch,
                reason,
                row,
                lease,
                db_now_us,
                ..
            } => Some(Refused {
                writer,
                epoch,
                reason,
                row,
                lease,
                now_us: db_now_us,
            }),
            _ => None,
        }
    }
}

/// "4.75" from mantissa 475 and 2 decimals.
pub fn amount(mantissa: u64, decimals: u8) -> String {
    if decimals == 0 {
        return mantissa.to_string();
    }
    let p = 10u64.pow(decimals as u32);
    format!(
        "{}.{:0width$}",
        mantissa / p,
        mantissa % p,
        width = decimals as usize
    )
}

/// What is wrong with a short link (`#run=<name>&seed=<n>&m=<mutation>`),
/// with the value as the link has it.
#[derive(Clone, Debug, PartialEq)]
pub enum BadRun {
    Name(String),
    Seed(String),
    Mutation(String),
    /// A lesson link (`#lesson=<id>`) names no lesson.
    Lesson(String),
    /// A link's moment (`t=`) is not a time in µs: the link opens at the
    /// start (it is said, not silently dropped).
    Time(String),
    /// A lesson link's `step=` is not one of the lesson's `of` steps: the
    /// nearest step (`shown`, counting from 1) is opened instead.
    Step {
        asked: String,
        of: usize,
        shown: usize,
    },
}

/// What the ballot explorer can say, language-neutral (numbers are ballot
/// numbers as typed; names are priests).
#[derive(Clone, Debug, PartialEq)]
pub enum BallotFinding {
    /// B1 holds.
    B1Holds,
    /// B1: these ballots share the number.
    B1Duplicate {
        number: i64,
        count: usize,
    },
    B2Holds,
    /// B2: the quorums of these two ballots share no priest.
    B2Disjoint {
        a: i64,
        b: i64,
    },
    /// B3 over the whole table: `forced` ballots keep the decree their
    /// quorum's latest earlier vote forces, `free` ones have none.
    B3Holds {
        forced: usize,
        free: usize,
    },
    /// B3 over the whole table: these ballots propose another decree than
    /// the one forced on them.
    B3Broken {
        numbers: String,
    },
    /// B3 for one ballot: free.
    Free,
    /// B3: forced to `decree` by the vote of `voters` in ballot `by`.
    Forced {
        by: i64,
        decree: String,
        voters: String,
        satisfied: bool,
        ambiguous: bool,
    },
    Successful,
    /// Theorem 1 holds; after ballot `first` succeeded, later ballots are pinned to `decree`.
    Pinned {
        first: i64,
        decree: String,
    },
    NoSuccess,
    /// Two successful ballots with different decrees.
    Disagree {
        a: i64,
        b: i64,
    },
    /// Input problems.
    EmptyQuorum {
        number: String,
    },
    EmptyDecree {
        number: String,
    },
    BadNumber {
        typed: String,
    },
    VoterOutsideQuorum {
        number: i64,
        priest: String,
    },
    Reconstructed,
}

/// Names joined for a sentence in this language.
/// A count with thin spaces between thousands: 1 638 955.
pub fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// A partition as the diagrams label it: "Partition {Α} | {Β,Γ} (one way)".
pub fn cut_label(
    w: &Words,
    names: &[String],
    groups: &[Vec<crate::sim::NodeId>],
    oneway: bool,
) -> String {
    let gs: Vec<String> = groups
        .iter()
        .map(|g| format!("{{{}}}", join_names(names, g.iter().copied(), ",")))
        .collect();
    format!(
        "{} {}{}",
        w.partition,
        gs.join(" | "),
        if oneway { w.st_one_way } else { "" }
    )
}

pub fn join_names(
    names: &[String],
    ids: impl Iterator<Item = crate::sim::NodeId>,
    sep: &str,
) -> String {
    ids.map(|n| names.get(n.index()).cloned().unwrap_or_else(|| "?".into()))
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words that are the same in both languages on purpose.
    const SAME: &[&str] = &[
        "app_title",
        "key_space",
        "key_arrows",
        "key_home_end",
        "key_plus_minus",
        "key_help",
        "nothing_yet",
        "b3_column",
        "lane_llm",
        // The table's name, which is SQL.
        "sql_orders",
        // The partition's groups are letters, as the hint names them ("グループ A").
        "group_a",
        "group_b",
        // The language switch names the *other* language.
        "language",
    ];

    /// Every complaint the JSON reader makes about a file, said in Japanese
    /// with its place: no English word left (but JSON's and UTF-8's names).
    #[test]
    fn a_file_that_is_not_json_is_told_in_japanese() {
        use crate::trace::import::ImportError;
        let deep = "[".repeat(200);
        let texts: &[&[u8]] = &[
            b"",
            b"{\"a\": 1",
            b"\"abc",
            b"[1,]",
            b"[1 2]",
            b"{1: 2}",
            b"{\"a\" 1}",
            b"{\"a\": 1 \"b\": 2}",
            b"\"\\q\"",
            b"[-x]",
            b"1e999",
            deep.as_bytes(),
            b"1 2",
            b"\"\xff\"",
            b"\"a\x01b\"",
            b"\"\\ud800\"",
            b"\"\\udc00\"",
            b"{\"seed\": 1, \"seed\": 2}",
        ];
        let mut said = std::collections::BTreeSet::new();
        for text in texts {
            let e = crate::json::parse(text).expect_err(&String::from_utf8_lossy(text));
            said.insert(e.message.clone());
            let (line, column) = (e.line, e.column);
            let ja = Lang::Ja.tell().import_error(&ImportError::NotJson(e));
            // What is quoted is the file's own text (a key).
            let bare: String = ja
                .replace("JSON", "")
                .replace("UTF-8", "")
                .split('"')
                .step_by(2)
                .collect();
            let english = bare
                .split(|c: char| !c.is_ascii_alphabetic())
                .find(|w| w.len() >= 2);
            assert_eq!(english, None, "{ja}");
            assert!(ja.contains(&format!("{line} 行 {column} 列")), "{ja}");
        }
        // The texts above reach each of the reader's complaints.
        assert_eq!(said.len(), 17, "{said:?}");
    }

    #[test]
    fn japanese_is_really_japanese() {
        let en = Lang::En.words().all_entries();
        let ja = Lang::Ja.words().all_entries();
        assert_eq!(en.len(), ja.len());
        for ((k, e), (_, j)) in en.iter().zip(&ja) {
            assert!(!e.trim().is_empty() && !j.trim().is_empty(), "{k} is empty");
            if SAME.contains(k) {
                continue;
            }
            assert_ne!(e, j, "{k} is not translated");
            assert!(
                j.chars().any(|c| !c.is_ascii()),
                "{k} = {j:?} has no Japanese in it"
            );
        }
    }

    /// Every narration line of every built-in run, with the run's name and
    /// its nodes' names.
    fn every_built_in_line(mut f: impl FnMut(&str, &[String], &crate::viz::narrate::Say)) {
        for name in crate::scenario::builtin::names() {
            let s = crate::scenario::builtin::get(name).unwrap();
            let run = crate::scenario::run::Run::record(&s).unwrap();
            for line in crate::viz::narrate::story(&run.trace, run.names.len()) {
                f(name, &run.names, &line.say);
            }
        }
    }

    /// Every built-in run's narration in Japanese has one space between a
    /// name or number and Japanese, and none between two Japanese words
    /// (it said "Α が 全員に" and "Α・Βに").
    #[test]
    fn japanese_narration_is_spaced_as_the_page_is() {
        let ja = |c: char| c > '\u{2e80}' && !"。、）」』：・（「『…！？".contains(c);
        let latin = |c: char| c.is_alphanumeric() && c < '\u{2e80}';
        let mut lines = 0;
        every_built_in_line(|name, names, say| {
            let said = Lang::Ja.tell().say(names, say);
            let cs: Vec<char> = said.chars().collect();
            for w in cs.windows(3) {
                let left = ja(w[0]) || "）」』".contains(w[0]);
                let right = ja(w[2]) || "（「『".contains(w[2]);
                assert!(!(left && w[1] == ' ' && right), "{name}: {said}");
            }
            for w in cs.windows(2) {
                assert!(
                    !(latin(w[0]) && ja(w[1]) || ja(w[0]) && latin(w[1])),
                    "{name}: {said}"
                );
            }
            lines += 1;
        });
        assert!(lines > 1000, "{lines} lines");
    }

    /// A message to a crashed node is narrated in the parliament's words
    /// only in the parliament: the commit view said "RM1 has left the
    /// chamber".
    #[test]
    fn only_the_parliament_has_a_chamber_to_leave() {
        use crate::sim::fault::Fault;
        use crate::viz::narrate::Say;
        let mut outside = 0;
        let mut crashes_outside = 0;
        every_built_in_line(|name, names, say| {
            // A crash or a restart: the chamber and the ledger are the
            // parliament's; a replica, a client, a worker crashes and keeps
            // what it wrote to disk (Multi-Paxos said "Α leaves the chamber").
            if let Say::Fault {
                fault: Fault::Crash { .. } | Fault::Restart { .. },
                ..
            } = say
            {
                let paxos = crate::scenario::builtin::get(name).unwrap().protocol
                    == crate::protocol::Kind::Paxos;
                let en = Lang::En.tell().say(names, say);
                let ja = Lang::Ja.tell().say(names, say);
                assert_eq!(en.contains("ledger"), paxos, "{name}: {en}");
                assert_eq!(ja.contains("議場"), paxos, "{name}: {ja}");
                assert_eq!(en.contains("disk"), !paxos, "{name}: {en}");
                assert_eq!(ja.contains("ディスク"), !paxos, "{name}: {ja}");
                crashes_outside += usize::from(!paxos);
                return;
            }
            let Say::Dropped {
                msg,
                reason: crate::trace::DropReason::Down,
                ..
            } = say
            else {
                return;
            };
            let paxos = matches!(msg, crate::protocol::Msg::Paxos(_));
            let en = Lang::En.tell().say(names, say);
            let ja = Lang::Ja.tell().say(names, say);
            assert_eq!(en.contains("chamber"), paxos, "{name}: {en}");
            assert_eq!(ja.contains("議場"), paxos, "{name}: {ja}");
            outside += usize::from(!paxos);
        });
        assert!(outside > 10, "{outside} lines outside the parliament");
        assert!(
            crashes_outside >= 3,
            "{crashes_outside} crashes outside the parliament"
        );
    }

    #[test]
    fn every_lesson_step_has_its_words_in_both_languages() {
        use crate::scenario::lessons::{Stage, LESSONS};
        for lang in [Lang::En, Lang::Ja] {
            let texts = lang.lessons();
            assert_eq!(texts.len(), LESSONS.len(), "{lang:?}: lesson count");
            for (def, text) in LESSONS.iter().zip(texts) {
                assert_eq!(def.id, text.id, "{lang:?}: lessons out of order");
                assert!(
                    !text.title.is_empty() && !text.summary.is_empty(),
                    "{lang:?} {}: title or summary missing",
                    def.id
                );
                assert_eq!(
                    def.steps.len(),
                    text.steps.len(),
                    "{lang:?} {}: step count",
                    def.id
                );
                for (i, (stage, st)) in def.steps.iter().zip(text.steps).enumerate() {
                    let at = format!("{lang:?} {} step {}", def.id, i + 1);
                    assert!(
                        !st.title.trim().is_empty() && !st.body.trim().is_empty(),
                        "{at}: title or body missing"
                    );
                    match *stage {
                        Stage::Watch { .. } | Stage::Try { .. } | Stage::Compare { .. } => {
                            assert!(!st.watch.trim().is_empty(), "{at}: what to watch")
                        }
                        Stage::Predict { options, .. } => {
                            assert!(
                                !st.question.trim().is_empty() && !st.explain.trim().is_empty(),
                                "{at}: question/explanation"
                            );
                            assert_eq!(st.options.len(), options as usize, "{at}: options");
                        }
                        Stage::Latency => assert_eq!(
                            st.labels.len(),
                            crate::scenario::latency::TABLE.len(),
                            "{at}: one label per row"
                        ),
                        _ => {}
                    }
                    if lang == Lang::Ja {
                        for t in [st.title, st.body] {
                            assert!(
                                t.chars().any(|c| !c.is_ascii()),
                                "{at}: {t:?} is not Japanese"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn browser_language_codes() {
        assert_eq!(Lang::from_code("ja-JP"), Some(Lang::Ja));
        assert_eq!(Lang::from_code("en-GB"), Some(Lang::En));
        assert_eq!(Lang::from_code("fr"), None);
        assert_eq!(Lang::from_code(""), None);
    }
}
