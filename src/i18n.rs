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

impl Lang {
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
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Ja,
            Lang::Ja => Lang::En,
        }
    }
}

macro_rules! words {
    ($($name:ident),* $(,)?) => {
        /// The labels of the app.
        #[derive(Debug)]
        pub struct Words { $(pub $name: &'static str,)* }
        impl Words {
            /// Every label with its field name (for completeness tests).
            pub fn entries(&self) -> Vec<(&'static str, &'static str)> {
                vec![$((stringify!($name), self.$name),)*]
            }
        }
    };
}

words!(
    app_title,
    tagline,
    press_space,
    // transport
    play,
    pause,
    step_back,
    step_forward,
    jump_back,
    jump_forward,
    to_start,
    to_end,
    speed,
    time,
    slower,
    faster,
    scrubber,
    seed,
    seed_apply,
    scenario,
    mutation,
    mutation_none,
    // views
    view_parliament,
    view_lease,
    view_ballots,
    view_lessons,
    views,
    language,
    present,
    exit_present,
    large_type,
    help,
    close,
    // panels
    narration_title,
    narration_empty,
    invariants_title,
    inspector_title,
    inspector_hint,
    spacetime_title,
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
    asleep,
    present_in_chamber,
    ink,
    pencil,
    idle,
    passed,
    free,
    forced,
    wants,
    local_clock,
    quorum_of_promises,
    quorum_of_votes,
    shared_member,
    decided_banner,
    no_decision,
    // faults
    faults,
    crash,
    restart,
    pause_for,
    seconds,
    llm_stall_preset,
    propose,
    decree,
    partition,
    partition_hint,
    group_a,
    group_b,
    one_way,
    heal,
    loss,
    duplicate,
    latency_ms,
    apply,
    fault_recorded,
    // help keys
    key_space,
    key_arrows,
    key_shift_arrows,
    key_plus_minus,
    key_home_end,
    key_help,
    key_present,
    key_page,
    // invariants
    inv_ok,
    inv_broken,
    inv_jump,
    // errors
    crashed_title,
    reload,
    bad_seed,
    lease_settings,
    ttl_s,
    renew_s,
    renew_default,
    workers,
    drift_ppm,
    fencing,
    design,
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
    stall_s,
    apply_settings,
    inject_title,
    llm_stall_button,
    gc_pause_button,
    worker,
    compare,
    compare_off,
    compare_fencing,
    compare_design,
    lane_store,
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
    count,
    seconds_log,
    ttl_axis,
    split_per_run,
    stale_per_run,
    remaining_s,
    time_axis,
    fencing_on,
    fencing_off,
    waiting_llm,
    frozen,
    settings_refused,
    file_menu,
    export_trace,
    export_scenario,
    import_file,
    drop_hint,
    copy_link,
    share_title,
    share_hint,
    copy,
    copied,
    copy_failed,
    export_view_svg,
    export_view_png,
    export_spacetime,
    export_shiviz,
    export_mermaid,
    window_from,
    window_to,
    restore_previous,
    previous_kept,
    scenario_loaded,
    autosave_restored,
);

/// Sentences with facts in them.
pub trait Speak: Sync {
    /// A ballot as people write it: "(3,Γ)".
    fn ballot(&self, names: &[String], b: Ballot) -> String {
        format!("({},{})", b.round, names.get(b.node.index()).map(String::as_str).unwrap_or("?"))
    }
    /// A duration in this language's units.
    fn duration(&self, us: u64) -> String;
    /// One narration line.
    fn say(&self, names: &[String], say: &Say) -> String;
    /// The name of an invariant, as a badge shows it.
    fn invariant(&self, inv: Invariant) -> &'static str;
    /// What the invariant means, in one sentence.
    fn invariant_meaning(&self, inv: Invariant) -> &'static str;
    /// The pencil slip of a proposer.
    fn pencil(&self, names: &[String], p: &crate::viz::parliament::Pencil) -> String;
    /// A seed that cannot be used, with the reason.
    fn seed_error(&self, typed: &str) -> String;
    /// A fault setting that cannot be used.
    fn setting_error(&self, what: &str, why: &str) -> String;
    /// A duration field that is not a number of seconds.
    fn bad_duration(&self, typed: &str) -> String;
    /// A decree that cannot be used.
    fn bad_decree(&self, e: &crate::protocol::value::BadValue) -> String;
    /// A partition needs two groups.
    fn partition_error(&self) -> String;
    /// A percentage field that is not 0–100.
    fn bad_percent(&self, typed: &str) -> String;
    /// "t = 1.234 s"
    fn time_label(&self, us: u64) -> String {
        format!("t = {}", self.duration(us))
    }
    /// A built-in scenario's title and what to watch.
    fn scenario_title(&self, name: &str) -> String;
    fn scenario_caption(&self, name: &str) -> &'static str;
    fn mutation_title(&self, m: crate::check::Mutation) -> &'static str;
    /// Why a file could not be imported.
    fn import_error(&self, e: &crate::trace::import::ImportError) -> String;
    /// Why a share link could not be opened.
    fn share_error(&self, e: &crate::trace::share::ShareError) -> String;
    /// How an imported trace was shown: 0 verified (hash), 1 different version
    /// (first difference at `n`), 2 events only (`why`).
    fn import_status(&self, how: u8, n: usize, hash_or_why: &str) -> String;
    /// The figures behind red flag `which` (0 depends, 1 p99, 2 TTL, 3 drill).
    fn flag_detail(&self, which: usize, f: &crate::check::red_flags::RedFlags) -> String;
}

/// Names joined for a sentence in this language.
pub fn join_names(names: &[String], ids: impl Iterator<Item = crate::sim::NodeId>, sep: &str) -> String {
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
        "seed",
        "key_space",
        "key_arrows",
        "key_home_end",
        "key_plus_minus",
        "key_help",
        "nothing_yet",
        // The language switch names the *other* language.
        "language",
    ];

    #[test]
    fn japanese_is_really_japanese() {
        let en = Lang::En.words().entries();
        let ja = Lang::Ja.words().entries();
        assert_eq!(en.len(), ja.len());
        for ((k, e), (_, j)) in en.iter().zip(&ja) {
            assert!(!e.trim().is_empty() && !j.trim().is_empty(), "{k} is empty");
            if SAME.contains(k) {
                continue;
            }
            assert_ne!(e, j, "{k} is not translated");
            assert!(j.chars().any(|c| !c.is_ascii()), "{k} = {j:?} has no Japanese in it");
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
