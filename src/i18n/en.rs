//! English.

pub mod commit;
pub mod lessons;
pub mod multipaxos;

use super::{group, join_names, More, Refused, Speak, Tell, Words};
use crate::check::{Invariant, Mutation};
use crate::protocol::commit::{CommitCommand, CommitMutation};
use crate::protocol::lease::LeaseCommand;
use crate::protocol::lease::LeaseMutation;
use crate::protocol::lease::{LeaseMsg, LeaseNote, LeaseTimer, View};
use crate::protocol::llm::{LlmOutcome, Purpose};
use crate::protocol::paxos::PaxosCommand;
use crate::protocol::paxos::PaxosMutation;
use crate::protocol::paxos::{Choice, PaxosMsg, PaxosNote, PaxosTimer};
use crate::protocol::storage::key_name;
use crate::protocol::storage::Refusal;
use crate::protocol::Command;
use crate::protocol::{Msg, Timer};
use crate::sim::fault::Fault;
use crate::sim::NodeId;
use crate::trace::DropReason;
use crate::viz::narrate::Say;
use crate::viz::parliament::Pencil;

pub static WORDS: Words = Words {
    app_title: "Paxos Island",
    tagline: "Real Paxos, leases and fencing tokens, running in your browser",
    press_space: "Press Space (or ▶) to watch the parliament pass a decree.",
    tap_play: "Tap ▶ below to watch the parliament pass a decree.",
    play: "Play",
    replay: "Play again from the start",
    pause: "Pause",
    step_back: "Step back",
    step_forward: "Step forward",
    to_start: "To the start",
    to_end: "To the end",
    speed: "Speed",
    scrubber: "Position in the run",
    seed: "Seed",
    seed_apply: "Run with this seed",
    scenario: "Scenario",
    mutation: "Break the algorithm",
    mutation_none: "No — the real algorithm",
    view_parliament: "Parliament",
    view_lease: "Lease lab",
    view_side: "narration",
    view_ballots: "Ballots",
    view_lessons: "Lessons",
    views: "Views",
    language: "日本語",
    present: "Present",
    exit_present: "Leave presentation",
    large_type: "Large type",
    help: "Keyboard help",
    close: "Close",
    retry: "Try again",
    readers_unavailable: "The file and link reader could not be fetched. Check the connection and try again; your work is as it was.",
    trace_hash: "Trace hash: the same scenario and seed always give the same hash",
    proposer: "proposer",
    acceptor: "acceptor",
    learner: "learner",
    promised: "Promised",
    last_vote: "Last vote",
    learned: "Decree",
    nothing_yet: "—",
    not_voted: "none",
    away: "away (crashed)",
    away_hint: "Away, it hears nothing: Restart it before pausing it or asking it to propose.",
    asleep: "asleep",
    present_in_chamber: "in the chamber",
    ink: "In ink: a decree, never changed (stable storage)",
    back_notes: "A note at the back of the ledger: crossed out and rewritten, but kept through a crash (stable storage)",
    pencil: "pencil (volatile)",
    wants: "Wants",
    decided_banner: "Decree passed",
    two_decrees_banner: "Agreement broken — two decrees passed",
    no_decision: "No decree has passed yet",
    crash: "Crash",
    restart: "Restart",
    fault_recorded: "Recorded in the scenario; the run continues from here.",
    mc_title: "Check every schedule",
    qr_title: "This moment on your phone",
    qr_button: "QR code",
    whole_run: "Show what comes next",
    whole_run_hint: "Draw the diagrams past the cursor too (off: they stop at the cursor, so a demo keeps its surprises)",
    file_menu: "File",
    export_trace: "Export trace (JSON)",
    export_scenario: "Export scenario (JSON)",
    import_file: "Import a trace or scenario…",
    drop_hint: "Drop a trace or scenario file to open it",
    copy_link: "Share link…",
    export_view_svg: "This view as SVG",
    export_view_png: "This view as PNG",
    export_shiviz: "ShiViz log",
    export_mermaid: "Mermaid sequence diagram",
    window_from: "from (s)",
    window_to: "to (s)",
    window_backwards: "The window ends before it starts: “to” must be later than “from”.",
    previous_kept: "Your previous work is kept.",
    scenario_loaded: "Scenario loaded.",
    recorded_no_faults: "This run is recorded events only: it cannot be changed. Export it, or open its scenario to experiment.",
    fault_after_end: "The run ends here: a fault after its end would change nothing. Go back to an earlier moment and inject it there.",
    view_commit: "Commit",
    view_multi: "Multi-Paxos",
};

/// The labels only the parts show (see `i18n::More`).
pub static MORE: More = More {
    share_ballots_title: "Link to this ballot table",
    share_ballots_hint: "Opening this link opens the Ballots tab with this table as it is now, its edits included.",
    restore_previous: "Restore my previous work",
    restored: "Your previous work is back; what you opened is kept.",
    reopen: "Back to what I opened",
    narration_title: "What just happened",
    narration_empty: "Nothing yet. Press Space to start.",
    narration_empty_touch: "Nothing yet. Tap ▶ to start.",
    invariants_title: "Invariants",
    inspector_title: "Inspector",
    inspector_hint: "Click a legislator to see its ledger and to inject faults.",
    spacetime_title: "Space-time diagram",
    free: "free",
    local_clock: "Its clock reads",
    pause_for: "Pause for",
    seconds: "s",
    llm_stall_preset: "LLM-sized stall (20 s)",
    propose: "Propose",
    decree: "Decree",
    partition_hint: "Put each legislator in group A or B; messengers cannot cross between the groups.",
    group_a: "A",
    group_b: "B",
    one_way: "One way (A cannot reach B)",
    heal: "Heal",
    loss: "Loss",
    latency_ms: "Latency (ms)",
    apply: "Apply",
    inv_ok: "holds",
    inv_broken: "broken",
    inv_jump: "Jump to where it broke",
    mc_intro: "The model checker runs the real algorithm through every order of deliveries, losses, duplicates, timeouts and crashes of a small parliament, and finds the shortest way to break a rule if there is one.",
    mc_acceptors: "Acceptors",
    mc_proposers: "Proposers",
    mc_ballots: "Ballots",
    mc_crashes: "Crashes",
    mc_start: "Check",
    mc_cancel: "Cancel",
    mc_open: "Open the shortest counterexample",
    mc_opened: "The model checker's shortest counterexample: a scripted run, one step per millisecond, paused where the rule broke.",
    lease_settings: "Settings",
    ttl_s: "TTL (s)",
    renew_s: "Renew every (s)",
    workers: "Workers",
    drift_ppm: "W1 clock drift (ppm)",
    design_in_loop: "In the loop (anti-pattern)",
    design_beside: "Beside the loop (sound)",
    design_none: "No LLM",
    llm_preset: "LLM behaviour",
    preset_fast_api: "Fast API (~0.3 s)",
    preset_typical_llm: "Typical LLM (p50 1.5 s, heavy tail)",
    preset_stall: "Stall of N s",
    preset_timeout: "Never answers (time-out)",
    preset_rate_limit: "Rate limit (429)",
    preset_refusal: "Refusal",
    preset_malformed_json: "Malformed JSON",
    preset_outage: "Vendor outage",
    preset_flaky: "Varying answers (keep, release, bad JSON)",
    preset_throttled: "Vendor policy (429s, refusals)",
    stall_s: "Stall (s)",
    apply_settings: "Apply settings",
    inject_title: "Inject now",
    llm_stall_button: "Its next LLM call stalls",
    gc_pause_button: "Its process pauses (GC)",
    worker: "Worker",
    compare_off: "One run",
    compare_fencing: "Fence: article | token",
    compare_design: "LLM in | beside the loop",
    lane_store: "lease store",
    crash_store_master: "Crash the store's master",
    restart_replica: "Restart",
    store_replica_title: "A replica of the store's Paxos group: the blue band is its master lease (only then does it answer the workers), ♛ an election, grey a crash",
    lane_orders: "orders",
    lane_llm: "LLM",
    believes: "believes",
    store_says: "store says",
    split_brain: "split brain",
    stale_attempted: "stale writes attempted",
    stale_rejected: "rejected",
    stale_accepted: "accepted",
    damaged_rows: "rows damaged (lost updates)",
    split_time: "split-brain time",
    failover: "failover",
    red_flags_title: "Red flags",
    flag_depends: "The lease module talks to the LLM",
    flag_p99: "LLM p99 latency above TTL/2",
    flag_ttl: "TTL stretched to wait for the LLM",
    flag_drill: "LLM-down drill: the loop stops",
    lease_rule_title: "The lease rule, in one sentence",
    lease_rule: "Write orders only while you hold the unexpired order-processor row, and stamp each write with its epoch, which the DB refuses unless current.",
    raised: "raised",
    quiet: "quiet",
    charts_title: "Charts",
    chart_latency: "LLM call latency",
    chart_sweep: "Monte Carlo sweep",
    chart_validity: "Lease validity",
    run_sweep: "Run the sweep",
    download_svg: "Download SVG",
    calls: "calls",
    seconds_log: "duration of an LLM call (s, log scale)",
    ttl_axis: "TTL (s)",
    split_per_run: "split-brain time per 60 s run (s)",
    stale_per_run: "stale writes accepted over newer data, per run",
    remaining_s: "time left on the lease (s)",
    time_axis: "time (s)",
    fencing_on: "fencing on",
    fencing_off: "fencing off",
    fence_article: "article: live lease + row fence",
    fence_token: "token: monotonic token alone",
    fence_off: "off: no check",
    fence_etcd: "etcd: a transaction on the lease key's revision",
    bump_on_renew: "new epoch on every renewal",
    dead_writes: "writes on a lease not live",
    not_live: "not live",
    refused_by: "refused by",
    refused_row: "row fenced",
    refused_other: "held by another",
    refused_expired: "lease expired",
    sql_title: "The SQL at this moment",
    sql_intro: "Each step of the store and of orders is one statement. The article states the rule in words and gives no SQL: these statements are ours, tested on PostgreSQL 15. Copy one into psql (after the setup below) to run it yourself.",
    sql_leases: "lease store — worker_leases",
    sql_orders: "orders",
    sql_none: "No statement yet.",
    sql_setup: "Setup: the tables and the simulated clock",
    sql_result: "returned",
    sql_clock: "now() on the database's clock",
    sql_etcd: "Recorded on etcd: its steps are a lease grant, keep-alives and transactions guarded by the lease key's revision — not SQL.",
    waiting_llm: "waiting on the LLM",
    frozen: "frozen",
    settings_refused: "These settings cannot run",
    faults_in_scenario: "Faults in this scenario",
    remove_fault: "Take this fault out",
    no_faults: "None: nothing goes wrong unless you make it.",
    ballots_title: "Ballots of the Synod — B1, B2, B3",
    ballots_intro: "Each row is a ballot: its number, its decree, its quorum and the priests who voted. Edit anything; the conditions are checked as you type.",
    ballot_number: "Ballot",
    voters: "Voters",
    b3_column: "B3",
    add_ballot: "Add a ballot",
    figure1_reset: "Back to Lamport's Figure 1",
    delete_row: "Delete this ballot",
    conditions: "Conditions",
    latency_title: "If 1 ns were 1 s",
    operation: "Operation",
    real_time: "Real",
    scaled_time: "Scaled ×10⁹",
    llm_slider: "An LLM call of",
    lessons_title: "Lessons",
    step_of: "Step",
    answer_right: "Right.",
    answer_wrong: "Not quite.",
    watch_label: "What to watch",
    try_label: "Free play: everything is unlocked from here.",
    reveal: "Show me",
    reveal_wait: "Watch the run go on: the answer comes when it reaches the moment that decides it.",
    done: "done",
    start_lesson: "Start",
    continue_lesson: "Continue (Step {})",
    link_to_step: "Link to this step",
    commit_compare: "Side by side with the other protocol (same faults)",
    faster_option: "Faster Paxos Commit (2b straight to the RMs)",
    crash_tm: "Crash the TM's node now",
    restart_tm: "Restart the TM's node",
    rm_working: "working",
    rm_uncertain: "uncertain — locks held",
    rm_committed: "committed",
    rm_aborted: "aborted",
    node_down: "down",
    uncertain_for: "uncertain",
    placement_separate: "own node",
    placement_colocated: "with RM1",
    costs_title: "What it costs: measured from calm runs, beside Gray & Lamport's formulas",
    col_protocol: "Protocol",
    col_placement: "TM",
    col_messages: "messages",
    col_delays: "message delays",
    col_writes: "stable-storage writes",
    measured: "run",
    paper: "paper",
    run_tally: "This run so far: {m} messages · {w} stable-storage writes",
    costs_note_delays: "Messages between roles on one node cross no network and are not counted. The paper counts the RM's request to commit as a message delay; with the TM on RM1's node that request is local, so a run takes one delay fewer (− 1).",
    costs_note_writes: "Writes: each RM's vote, the TM's decision, each acceptor's votes (one write for all RMs). The RMs then write the outcome, in every protocol alike: the paper's N+1 and N+F+1 count the writes made before the outcome is known.",
    mp_log_title: "The replicated log",
    mp_log_hint: "One row per replica, one column per slot. A note at the back of the ledger: a vote (2b) only, kept through a crash; ink: chosen and written; underlined: applied to the key-value table, strictly in slot order.",
    mp_slot: "slot",
    mp_leads: "leads",
    mp_runs: "runs for election",
    mp_follows: "follows",
    mp_lease_mark: "holds the master lease",
    mp_cut_off_mark: "cut off from a majority",
    mp_clients: "Clients, as each one believes (a paused one still believes what it last heard)",
    mp_waits: "waits for",
    mp_heard: "last answer",
    mp_lease_title: "Master lease: when each replica believed it held it (true time)",
    mp_lease_none: "This run has no master lease: a replica that believes it leads serves reads from its own copy, lease or not.",
    st_crashed: "crashed",
    st_duplicate: "(duplicate)",
    st_in_flight: "… in flight",
    st_thinned: "messages in this window are not drawn: too many to read, so an even sample of them is shown",
    st_lost: "lost",
    st_partitioned: "partition",
    st_receiver_down: "receiver down",
    mp_paused: "paused",
    mp_session_ended: "session ended by the master",
    mp_verdict_refused: "refused",
    mp_sessions_title: "Chubby sessions: how each client sees its session (true time), and the file server's verdicts",
    mp_session: "session",
    mp_session_safe: "safe",
    mp_session_jeopardy: "in jeopardy",
    mp_session_lost: "lost",
    mp_holds: "holds",
    mp_lock: "lock",
    mp_generation: "generation",
    mp_file_server: "file server",
    mp_file: "file",
    mp_file_empty: "nothing written yet",
    mp_last_check: "last check",
    mp_verdict_accepted: "accepted",
    mp_verdict_stale: "refused: an older generation than one already seen",
    mp_verdict_not_current: "refused: the cell says it is no longer current",
    mp_legend_vote: "vote (a note at the back of the ledger: kept through a crash)",
    mp_legend_ink: "chosen (ink)",
    mp_legend_applied: "applied",
    mp_legend_noop: "no-op (a gap filled)",
    crash_leader: "Crash the leader now",
    restart_replicas: "Restart crashed replicas",
    cut_leader_off: "Cut the leader off",
    cut_leader_off_hint: "A partition: the leader on one side, the other replicas on the other. Clients still reach both sides.",
    heal_network: "Heal the network",
    mp_cut_nothing: "There is no partition to heal at this moment.",
    mc_needs_crash: "This mutation acts only when a legislator crashes and restarts: it can show only with Crashes at 1 or more.",
    mp_write: "Send a write",
    mp_write_key: "key",
    mp_write_value: "value",
    mp_no_leader: "Nobody leads at this moment.",
    compare: "Side by side",
    design: "Where the LLM sits",
    fencing: "Fence (what orders checks)",
    faults: "Faults",
    count: "count",
    partition: "Partition",
    st_one_way: " (one way)",
    duplicate: "Duplication",
    quorum: "Quorum",
    next: "Next",
    back: "Back",
    copied: "Copied.",
    copy_failed: "Could not copy; select the link and press Ctrl+C.",
    share_title: "Link to this scenario",
    share_hint: "Opening this link reproduces the run exactly (same seed, same faults), at the moment on screen now.",
    share_step_hint: "Opening this link opens this lesson at this step, in the language of whoever opens it.",
    copy: "Copy",
    key_space: "Space",
    key_arrows: "← →  , .",
    key_shift_arrows: "Shift + ← →",
    key_plus_minus: "+ −",
    key_home_end: "Home End",
    key_present: "P",
    key_qr: "Q",
    qr_key_when: "while presenting",
    key_page: "PageUp PageDown (← → in a lesson)",
    key_help: "?",
    jump_back: "Previous milestone",
    jump_forward: "Next milestone",
    slower: "Slower",
    faster: "Faster",
};

pub struct En;

fn name(names: &[String], n: NodeId) -> &str {
    names
        .get(n.index())
        .map(String::as_str)
        .unwrap_or("the network")
}

fn msg_kind(m: &Msg) -> String {
    match m {
        Msg::Paxos(p) => format!("{} ({})", p.type_name(), p.phase()),
        Msg::Commit(c) => commit::kind(c),
        Msg::Lease(l) => match l {
            LeaseMsg::Acquire { .. } => "lease request".into(),
            LeaseMsg::AcquireReply { .. } => "lease reply".into(),
            LeaseMsg::Release { .. } => "release".into(),
            LeaseMsg::Row { .. } => "lease row".into(),
            LeaseMsg::Write { .. } => "write".into(),
            LeaseMsg::WriteReply { .. } => "write reply".into(),
            LeaseMsg::Ask { .. } => "LLM question".into(),
            LeaseMsg::Answer { .. } => "LLM answer".into(),
        },
        Msg::Multipaxos(m) => multipaxos::msg_kind(m),
    }
}

fn outcome(o: LlmOutcome) -> &'static str {
    match o {
        LlmOutcome::Keep => "“keep the lease”",
        LlmOutcome::Release => "“release it”",
        LlmOutcome::Explained => "an explanation",
        LlmOutcome::Malformed => "malformed JSON (the parse fails)",
        LlmOutcome::Refusal => "a refusal",
        LlmOutcome::RateLimited { .. } => "429 rate limited",
        LlmOutcome::Unavailable => "503 unavailable",
        LlmOutcome::Timeout => "nothing (timed out)",
    }
}

impl En {
    fn message(&self, names: &[String], from: NodeId, to: String, msg: &Msg, many: bool) -> String {
        let f = name(names, from);
        match msg {
            Msg::Paxos(p) => {
                let b = self.ballot(names, p.ballot());
                match *p {
                    PaxosMsg::Prepare { .. } if many => {
                        format!("{f} starts ballot {b}: prepare (1a) to {to}.")
                    }
                    PaxosMsg::Prepare { .. } => {
                        format!("{f} sends prepare (1a) for ballot {b} to {to}.")
                    }
                    PaxosMsg::Promise {
                        last_vote: Some(v), ..
                    } => format!(
                        "{f} promises ballot {b} to {to}. Its last vote: ballot {}, decree {}.",
                        self.ballot(names, v.ballot),
                        v.value
                    ),
                    PaxosMsg::Promise {
                        last_vote: None, ..
                    } => format!("{f} promises ballot {b} to {to}. It has not voted yet."),
                    PaxosMsg::Accept { value, .. } => {
                        format!("{f} asks {to} to vote for decree {value} in ballot {b} (2a).")
                    }
                    PaxosMsg::Accepted { value, .. } => {
                        format!("{f} votes for {value} in ballot {b} and tells {to} (2b).")
                    }
                    PaxosMsg::Decided { value, .. } => {
                        format!("{f} announces to {to}: decree {value} has passed (3).")
                    }
                }
            }
            Msg::Commit(c) => commit::message(names, from, to, c, many),
            Msg::Lease(l) => match *l {
                LeaseMsg::Acquire { .. } => {
                    format!("{f} asks {to} for the lease (one compare-and-set).")
                }
                LeaseMsg::AcquireReply { epoch: Some(e), .. } => {
                    format!("{f} answers {to}: epoch {e}.")
                }
                LeaseMsg::AcquireReply { epoch: None, .. } => format!("{f} answers {to}: no."),
                LeaseMsg::Release { epoch } => format!("{f} gives the lease (epoch {epoch}) back."),
                LeaseMsg::Row { row, .. } => format!(
                    "{f} shows {to} its lease row: epoch {}, until {}.",
                    row.epoch,
                    self.duration(row.expires_at.0)
                ),
                LeaseMsg::Write { key, epoch, .. } => {
                    format!("{f} writes {} with epoch {epoch}.", key_name(key))
                }
                LeaseMsg::WriteReply { ok: true, .. } => format!("{f} confirms {to}'s write."),
                LeaseMsg::WriteReply { ok: false, .. } => {
                    format!("{f} tells {to} its write was refused.")
                }
                LeaseMsg::Ask {
                    purpose: Purpose::KeepLease,
                    ..
                } => format!("{f} asks the LLM whether to keep the lease."),
                LeaseMsg::Ask {
                    purpose: Purpose::Explain,
                    ..
                } => format!("{f} asks the LLM to explain what happened."),
                LeaseMsg::Answer { outcome: o, .. } => {
                    format!("The LLM answers {to}: {}.", outcome(o))
                }
            },
            Msg::Multipaxos(m) => multipaxos::message(self, names, f, &to, m, many),
        }
    }
}

impl Speak for En {
    fn duration(&self, us: u64) -> String {
        crate::sim::time::human_us(us)
    }

    fn pencil(&self, names: &[String], p: &Pencil) -> String {
        match p {
            Pencil::Idle => "idle".into(),
            Pencil::Collecting {
                ballot,
                promises,
                need,
            } => {
                format!(
                    "{}: {promises}/{need} promises",
                    self.ballot(names, *ballot)
                )
            }
            Pencil::Voting {
                ballot,
                value,
                votes,
                need,
                choice,
            } => format!(
                "{} {value} {}: {votes}/{need} votes",
                self.ballot(names, *ballot),
                match choice {
                    Choice::Free => "free",
                    Choice::Forced { .. } => "forced",
                    Choice::Ignored { .. } | Choice::NotHighest { .. } => "B3 broken",
                }
            ),
            Pencil::Passed { value } => format!("{value} passed"),
        }
    }

    fn seed_error(&self, typed: &str) -> String {
        format!("“{typed}” is not a seed: use a whole number from 0 to 18446744073709551615.")
    }

    fn bad_duration(&self, typed: &str) -> String {
        format!("“{typed}” is not a duration: give a number of seconds above 0 and at most 3600.")
    }

    fn seconds_between(&self, typed: &str, lo: &str, hi: &str) -> String {
        format!("“{typed}” cannot be used here: give a number of seconds from {lo} to {hi}.")
    }

    fn scenario_title(&self, name: &str) -> String {
        match name {
            "calm" => "A calm session".into(),
            "forced" => "A forced decree (B3)".into(),
            "crash-f" => "F of 2F+1 leave: progress".into(),
            "crash-f-plus-1" => "F+1 leave: no progress, still safe".into(),
            "dueling" => "Dueling proposers (livelock)".into(),
            "dueling-backoff" => "Dueling, ended by backoff".into(),
            "dueling-leader" => "Dueling, ended by a president".into(),
            "lossy" => "Lost and duplicated messengers".into(),
            "partition-heal" => "A partition and its healing".into(),
            "restart" => "The ledger survives a restart".into(),
            "bench-lossy" => "Benchmark: 3 proposers, lossy".into(),
            "kleppmann" => "Kleppmann's tokens 33 and 34".into(),
            "kleppmann-unfenced" => "Tokens 33 and 34, fencing off".into(),
            "lone-pause" => "One worker, paused past its lease".into(),
            "lone-pause-token" => "One worker past its lease, token alone".into(),
            "llm-in-loop" => "An LLM inside the lease loop".into(),
            "llm-in-loop-unfenced" => "LLM in the loop, fencing off".into(),
            "llm-beside" => "The LLM beside the loop".into(),
            "llm-outage-drill" => "Drill: the LLM vendor is down".into(),
            "clock-drift" => "Clocks that drift too far".into(),
            "llm-article-cadence" => "The article's cadence: TTL 1 s, the LLM in the loop".into(),
            "llm-flaky" => "Non-determinism: the same question, different answers".into(),
            "llm-throttled" => "Authority: the vendor's rate limits and refusals".into(),
            "llm-ttl-stretched" => "A TTL stretched for the LLM, and a crash".into(),
            "replicated-store" => "The store is a Paxos group: its master crashes".into(),
            "commit-2pc" => "Two-phase commit".into(),
            "commit-2pc-tm-crash" => "2PC: the TM crashes".into(),
            "commit-paxos" => "Paxos Commit, F = 1".into(),
            "commit-paxos-tm-crash" => "Paxos Commit: the leader crashes".into(),
            "commit-paxos-f0" => "Paxos Commit, F = 0".into(),
            "multi-calm" => "Multi-Paxos: a stable leader".into(),
            "multi-leader-crash" => "Multi-Paxos: the leader crashes mid-pipeline".into(),
            "multi-catch-up" => "Multi-Paxos: a replica catches up".into(),
            "two-masters" => "Two masters, no lease: a stale read".into(),
            "master-lease" => "The master lease: one master at a time".into(),
            "chubby-failover" => "Chubby: the master fails over, the session survives".into(),
            "chubby-sequencer" => "Chubby: a paused lock holder's stale sequencer".into(),
            other => other.to_string(),
        }
    }

    fn mutation_title(&self, m: Mutation) -> &'static str {
        match m {
            Mutation::Paxos(PaxosMutation::SkipB3) => "skip B3: ignore reported votes",
            Mutation::Paxos(PaxosMutation::PickFirstVote) => {
                "pick first vote: not the highest-numbered"
            }
            Mutation::Paxos(PaxosMutation::ForgetOnRestart) => {
                "forget on restart: ledger in pencil"
            }
            Mutation::Paxos(PaxosMutation::MinorityQuorum) => "minority quorum: 2 of 5 is enough",
            Mutation::Paxos(PaxosMutation::AcceptLowerBallot) => {
                "accept lower ballot: break promises"
            }
            Mutation::Lease(LeaseMutation::BlindAcquire) => "blind acquire: no compare-and-set",
            Mutation::Lease(LeaseMutation::NoEpochBump) => "no epoch bump on takeover",
            Mutation::Lease(LeaseMutation::NoFence) => "no fence: storage accepts any epoch",
            Mutation::Multipaxos(m) => multipaxos::mutation_title(m),
            Mutation::Commit(CommitMutation::CommitWithoutAllPrepared) => {
                "commit without all prepared: silence taken for yes"
            }
        }
    }

    fn unknown_link(&self, fragment: &str) -> String {
        let f: String = fragment.chars().take(40).collect();
        format!("Nothing here opens “#{f}”: a scenario link starts with #s= or #run=, a lesson link with #lesson= and a lesson's id, a ballot table's with #ballots=. Your current work is unchanged.")
    }

    fn bad_run_link(&self, bad: &crate::i18n::BadRun) -> String {
        use crate::i18n::BadRun;
        let cut = |v: &str| v.chars().take(40).collect::<String>();
        let what = match bad {
            BadRun::Name(v) => format!("no built-in run is named “{}” (run= in the link)", cut(v)),
            BadRun::Seed(v) => format!(
                "the seed “{}” is not a whole number from 0 to 18446744073709551615 (seed= in the link)",
                cut(v)
            ),
            BadRun::Mutation(v) => format!("there is no mutation “{}” (m= in the link)", cut(v)),
            BadRun::Lesson(v) => format!("there is no lesson “{}” (lesson= in the link; the Lessons tab lists them)", cut(v)),
            BadRun::Step { asked, of, shown } => {
                return format!("This lesson has no step “{}” (step= in the link): it has {of} steps, and step {shown} is shown.", cut(asked))
            }
            BadRun::Time(v) => {
                return format!("This link's moment “{}” is not a time in microseconds (t= in the link): it opens at the start.", cut(v))
            }
        };
        format!("This link cannot be opened: {what}. Was it mistyped or cut short? Your current work is unchanged.")
    }

    fn part_loading(&self, what: &str) -> String {
        format!("Loading the {what} view…")
    }

    fn export_unavailable(&self) -> String {
        "The export could not be fetched (the network or the server failed). Nothing was lost; try again.".to_string()
    }

    fn part_failed(&self, what: &str) -> String {
        format!("The {what} view could not be fetched (the network or the server failed). Nothing on screen was lost; try again.")
    }
}

impl Tell for En {
    fn import_error(&self, e: &crate::trace::import::ImportError) -> String {
        format!("This file cannot be opened: {e}. Your current work is unchanged.")
    }

    fn share_error(&self, e: &crate::trace::share::ShareError) -> String {
        format!("This link cannot be opened: {e}. Your current work is unchanged.")
    }

    fn import_status(&self, how: u8, n: usize, text: &str) -> String {
        match how {
            0 => format!("Verified replay: re-simulating the scenario gives the same {n} events (trace hash {text})."),
            1 => format!("This trace's events are not what its scenario gives here (from event {n} on): it was recorded by a different version of Paxos Island, or edited. Showing the recorded events as they are."),
            3 => format!("Recorded live on a real {text}, with real threads and wall-clock time: showing its {n} recorded events (such a run cannot be replayed)."),
            _ => format!("Showing the recorded events only ({text})."),
        }
    }

    fn mp_cmd(&self, names: &[String], c: &crate::protocol::multipaxos::Cmd) -> String {
        multipaxos::cmd_short(names, c)
    }

    fn mp_outcome(&self, o: &crate::protocol::multipaxos::Outcome) -> String {
        multipaxos::outcome_short(o)
    }

    fn say(&self, names: &[String], say: &Say) -> String {
        let n = |x: NodeId| name(names, x).to_string();
        match say {
            Say::Sent { from, to, msg } => self.message(names, *from, n(*to), msg, false),
            Say::Broadcast { from, to, everyone, msg } => {
                let to = if *everyone { "everyone".to_string() } else { join_names(names, to.iter().copied(), ", ") };
                self.message(names, *from, to, msg, true)
            }
            Say::Dropped { from, to, msg, reason } => match reason {
                DropReason::Loss => format!("The messenger carrying {}'s {} to {} is lost.", n(*from), msg_kind(msg), n(*to)),
                DropReason::Partition => format!("{}'s {} cannot cross the partition to {}.", n(*from), msg_kind(msg), n(*to)),
                // The chamber is the parliament's: elsewhere a node is down.
                DropReason::Down => format!(
                    "{} {}; {}'s {} finds nobody.",
                    n(*to),
                    if matches!(msg, Msg::Paxos(_)) { "has left the chamber" } else { "is down" },
                    n(*from),
                    msg_kind(msg)
                ),
            },
            Say::Duplicated { from, to, msg } => format!("The network duplicates {}'s {} to {}.", n(*from), msg_kind(msg), n(*to)),
            Say::Timer { node, timer } => match timer {
                Timer::Paxos(PaxosTimer::PhaseTimeout) => format!("{}'s hourglass runs out: no quorum in time.", n(*node)),
                Timer::Paxos(PaxosTimer::Backoff) => format!("{} has waited out its random backoff.", n(*node)),
                Timer::Lease(LeaseTimer::Deadline) => format!("{}'s own deadline passes.", n(*node)),
                Timer::Lease(LeaseTimer::LlmTimeout) => format!("{} gives up waiting for the LLM.", n(*node)),
                Timer::Commit(t) => commit::timer(&n(*node), *t),
                _ => format!("{}'s timer fires.", n(*node)),
            },
            Say::Fault { fault, chamber } => match fault {
                Fault::Crash { node } if *chamber => format!("{} leaves the chamber (crash): its pencil slips are lost; its ledger stays.", n(*node)),
                Fault::Crash { node } => format!("{} crashes: what it held only in memory is lost; what it wrote to disk stays.", n(*node)),
                Fault::Restart { node } if *chamber => format!("{} returns and reads its ledger.", n(*node)),
                Fault::Restart { node } => format!("{} restarts and reads back what it wrote to disk.", n(*node)),
                Fault::Pause { node, for_us } => format!(
                    "{} falls asleep for {} (a pause, not a crash: it will wake with its old beliefs).",
                    n(*node),
                    self.duration(*for_us)
                ),
                Fault::Partition { groups, oneway } => {
                    let gs: Vec<String> = groups.iter().map(|g| format!("{{{}}}", join_names(names, g.iter().copied(), ", "))).collect();
                    if *oneway {
                        format!("Messengers from {} can no longer reach {}.", gs[0], gs[1..].join(", "))
                    } else {
                        format!("Partition: messengers cannot cross between {}.", gs.join(" and "))
                    }
                }
                Fault::Heal => "The partition heals; every road is open again.".into(),
                Fault::SetLoss { p } => format!("From now on a messenger is lost with probability {} %.", crate::float::fixed(p * 100.0, 0)),
                Fault::SetDuplicate { p } => format!("From now on a message is duplicated with probability {} %.", crate::float::fixed(p * 100.0, 0)),
                Fault::SetReorder { p } => format!("From now on {} % of messages are held back and overtaken.", crate::float::fixed(p * 100.0, 0)),
                Fault::SetLatency { latency } => format!("Messengers now take about {} on the way.", self.duration(latency.median_us())),
                Fault::ClockStep { node, by_us } => format!(
                    "{}'s clock jumps {} by {}.",
                    n(*node),
                    if *by_us >= 0 { "forward" } else { "back" },
                    self.duration(by_us.unsigned_abs())
                ),
                Fault::Deliver { id } => format!("The script delivers message {id} (the checker chose this step)."),
                Fault::Fire { node, timer } => format!("The script runs out {}'s hourglass ({timer}).", n(*node)),
                Fault::SetDrift { node, ppm } => format!("{}'s clock now runs {} ppm {}.", n(*node), ppm.abs(), if *ppm >= 0 { "fast" } else { "slow" }),
            },
            Say::Command { command } => match command {
                Command::Paxos(PaxosCommand::Propose { node, value }) => format!("{} is asked to propose decree {value}.", n(*node)),
                Command::Lease(LeaseCommand::LlmStall { node, for_us }) => format!("The LLM's next answer to {} will take {}.", n(*node), self.duration(*for_us)),
                Command::Lease(LeaseCommand::LlmOutage { down: true }) => "The LLM vendor goes down.".into(),
                Command::Lease(LeaseCommand::LlmOutage { down: false }) => "The LLM vendor is back.".into(),
                Command::Multipaxos(c) => multipaxos::command(names, c),
                Command::Commit(CommitCommand::VoteAbort { node }) => format!("{} will vote “aborted” when asked.", n(*node)),
            },
            Say::Woke { node } => format!("{} wakes up — still believing whatever it believed before.", n(*node)),
            Say::Paxos { node, note } => {
                let who = n(*node);
                match note {
                    PaxosNote::PromiseQuorum { ballot, members } => format!(
                        "{who} has promises from a majority for ballot {}: {}.",
                        self.ballot(names, *ballot),
                        join_names(names, members.iter(), ", ")
                    ),
                    PaxosNote::ValuePicked { value, choice: Choice::Free, .. } => {
                        format!("Free: nobody in the quorum has voted, so {who} proposes its own decree {value}.")
                    }
                    PaxosNote::ValuePicked { value, choice: Choice::Forced { by, voter }, .. } => format!(
                        "Forced (B3): {} voted for {value} in ballot {}, the highest vote reported, so {who} must propose {value}.",
                        n(*voter),
                        self.ballot(names, *by)
                    ),
                    PaxosNote::ValuePicked { value, choice: Choice::Ignored { by, voter }, .. } => format!(
                        "B3 broken: votes were reported — the highest is {}'s in ballot {} — but {who} ignores them and proposes its own decree {value}.",
                        n(*voter),
                        self.ballot(names, *by)
                    ),
                    PaxosNote::ValuePicked { value, choice: Choice::NotHighest { by, voter, highest }, .. } => format!(
                        "B3 broken: {who} takes the first vote reported, {}'s for {value} in ballot {}, though a vote in ballot {} is higher.",
                        n(*voter),
                        self.ballot(names, *by),
                        self.ballot(names, *highest)
                    ),
                    PaxosNote::AcceptedQuorum { value, members, .. } => format!(
                        "{who} has votes from a majority ({}): decree {value} has passed.",
                        join_names(names, members.iter(), ", ")
                    ),
                    PaxosNote::Preempted { ballot, by } => format!(
                        "{who} sees ballot {} above its own {} and gives its own up.",
                        self.ballot(names, *by),
                        self.ballot(names, *ballot)
                    ),
                    PaxosNote::Ignored { ballot, promised, phase } => format!(
                        "{who} ignores the {phase} request for ballot {}: it promised ballot {}.",
                        self.ballot(names, *ballot),
                        self.ballot(names, *promised)
                    ),
                    PaxosNote::Learned { value, .. } => format!("{who} writes decree {value} in its ledger, in ink."),
                    PaxosNote::LearnConflict { have, told } => format!("{who} has {have} in ink but is told {told} passed!"),
                    PaxosNote::Chosen { ballot, value, members } => format!(
                        "A majority ({}) has voted for {value} in ballot {}: {value} is chosen.",
                        join_names(names, members.iter(), ", "),
                        self.ballot(names, *ballot)
                    ),
                    PaxosNote::BallotStarted { ballot } => format!("{who} starts ballot {}.", self.ballot(names, *ballot)),
                    PaxosNote::Asked { value } => format!("{who} wants decree {value} passed."),
                    PaxosNote::Ledger { .. } => format!("{who} updates its ledger."),
                }
            }
            Say::Multi { node, note } => multipaxos::note(self, names, &n(*node), note),
            Say::Commit { node, note } => commit::note(names, &n(*node), note),
            Say::Lease { node, note } => {
                let who = n(*node);
                match *note {
                    LeaseNote::Granted { holder, epoch, expires_at_us, .. } => format!(
                        "The store grants the lease to {} with epoch {epoch} (until {} on the store's clock).",
                        n(holder),
                        self.duration(expires_at_us)
                    ),
                    LeaseNote::Renewed { holder, epoch, .. } => format!("{} renews the lease; epoch {epoch} stays.", n(holder)),
                    LeaseNote::Refused { asker, holder, epoch, .. } => {
                        format!("The store says no to {}: {} holds epoch {epoch}.", n(asker), n(holder))
                    }
                    LeaseNote::Released { holder, epoch, .. } => format!("{} releases the lease (epoch {epoch}).", n(holder)),
                    LeaseNote::Expired { holder, epoch, view: View::Worker } => {
                        format!("{} stops believing it holds the lease (epoch {epoch}).", n(holder))
                    }
                    LeaseNote::Expired { holder, epoch, view: View::Store } => {
                        format!("On the store's clock, {}'s lease (epoch {epoch}) has expired.", n(holder))
                    }
                    LeaseNote::Belief { holding: true, epoch } => format!("{who} believes it holds the lease (epoch {epoch})."),
                    LeaseNote::Belief { holding: false, .. } => format!("{who} no longer believes it holds the lease."),
                    LeaseNote::WriteSent { key, epoch } => format!("{who} writes {} with epoch {epoch}.", key_name(key)),
                    LeaseNote::WriteAccepted { writer, epoch, key, .. } => {
                        format!("orders accepts {}'s write to {} with epoch {epoch}.", n(writer), key_name(key))
                    }
                    LeaseNote::WriteRejected { writer, key, .. } => format!(
                        "orders REJECTS {}'s write to {}: {}.",
                        n(writer),
                        key_name(key),
                        Refused::of(note).map(|r| self.refusal(names, &r)).unwrap_or_default()
                    ),
                    LeaseNote::LlmRequest { purpose: Purpose::KeepLease } => {
                        format!("{who} asks the LLM whether to keep the lease — and waits for the answer.")
                    }
                    LeaseNote::LlmRequest { purpose: Purpose::Explain } => {
                        format!("{who} asks the LLM to explain what happened; nothing waits for it.")
                    }
                    LeaseNote::LlmResponse { latency_us, outcome: o } => {
                        format!("{who} gets the LLM's answer after {}: {}.", self.duration(latency_us), outcome(o))
                    }
                    LeaseNote::SplitBrainStart { believers } => format!(
                        "Split brain: {} each believe they hold the lease.",
                        join_names(names, (0..64u8).filter(|i| believers & (1 << i) != 0).map(NodeId), " and ")
                    ),
                    LeaseNote::SplitBrainEnd { lasted_us } => format!("The split brain ends after {}.", self.duration(lasted_us)),
                }
            }
            Say::Violation { invariant, detail, .. } => format!("{} is broken: {detail}", self.invariant(*invariant)),
            Say::Foreign { node, kind, detail } => format!("{}: {kind} {detail}", n(*node)),
        }
    }

    fn invariant(&self, inv: Invariant) -> &'static str {
        match inv {
            Invariant::Agreement => "Agreement",
            Invariant::Validity => "Validity",
            Invariant::OneValuePerBallot => "One decree per ballot",
            Invariant::PromiseMonotonic => "Promises kept",
            Invariant::VoteBelowPromise => "Vote ≤ promise",
            Invariant::LearnerConsistency => "Learners agree",
            Invariant::SingleGrant => "One lease at a time",
            Invariant::EpochUnique => "Epochs grow",
            Invariant::FencingMonotonic => "Fenced writes",
            Invariant::LogPrefix => "Same log everywhere",
            Invariant::SingleMaster => "One master at a time",
            Invariant::FreshReads => "No stale reads",
            Invariant::LiveLease => "Only the live lease writes",
            Invariant::Atomicity => "Atomicity",
            Invariant::CommitValidity => "Commit only if all prepared",
        }
    }

    fn invariant_meaning(&self, inv: Invariant) -> &'static str {
        match inv {
            Invariant::Agreement => "At most one decree is ever chosen.",
            Invariant::Validity => "Only a decree somebody proposed can be voted on.",
            Invariant::OneValuePerBallot => "All votes of one ballot are for the same decree.",
            Invariant::PromiseMonotonic => "An acceptor's promise never goes down, even across a restart, and it never votes below it.",
            Invariant::VoteBelowPromise => "An acceptor's last vote is never above its promise.",
            Invariant::LearnerConsistency => "A learner learns only a chosen decree; learners never differ.",
            Invariant::SingleGrant => "The store never has two unexpired grants of the lease at once.",
            Invariant::EpochUnique => "Each epoch belongs to one holder, and a new holder gets a higher epoch.",
            Invariant::FencingMonotonic => "A fenced store never accepts a token below one it already accepted: an epoch for a row, a lock's generation for a Chubby file server.",
            Invariant::LogPrefix => "Every replica applies the same command at each slot: the applied logs are prefixes of one another.",
            Invariant::SingleMaster => "At most one replica believes it holds the master lease at any instant.",
            Invariant::FreshReads => "No read returns a value older than a write that completed before the read began.",
            Invariant::LiveLease => "A write lands only with the epoch of the lease that is live at the store at that instant.",
            Invariant::Atomicity => "Never one RM committed and another aborted.",
            Invariant::CommitValidity => "The transaction commits only if every RM voted “prepared”.",
        }
    }

    fn scenario_error(&self, e: &crate::scenario::ScenarioError) -> String {
        e.to_string()
    }

    fn setting_error(&self, what: &str, why: &str) -> String {
        format!("{what}: {why}")
    }

    fn bad_decree(&self, e: &crate::protocol::value::BadValue) -> String {
        e.to_string()
    }

    fn partition_error(&self) -> String {
        "Put at least one legislator in group A and one in group B.".into()
    }

    fn bad_latency(&self, typed: &str) -> String {
        format!("“{typed}” is not a latency: give milliseconds, like 100, or a range like 60–140.")
    }

    fn bad_percent(&self, typed: &str) -> String {
        format!("“{typed}” is not a percentage: give a number from 0 to 100.")
    }

    fn caption_changed(&self) -> &'static str {
        "(That is the built-in run; the run on screen has been changed since — faults added or settings edited — and shows what the changes make of it.)"
    }

    fn scenario_caption(&self, name: &str) -> &'static str {
        match name {
            "calm" => "Α proposes decree α to five legislators. Watch phase 1 (prepare, promise) and phase 2 (accept, accepted), then the announcement.",
            "forced" => "Α gets votes for α, then leaves before anyone learns it. Later Γ wants γ — but the promises report Α's vote, so B3 forces α.",
            "crash-f" => "Δ and Ε are away. Three of five is still a majority: the decree passes.",
            "crash-f-plus-1" => "Γ, Δ and Ε are away. Two of five is not a majority: ballots fail, but nothing wrong ever happens.",
            "dueling" => "Α and Β pre-empt each other for ever: each new prepare voids the other's ballot. No decree passes.",
            "dueling-backoff" => "The same duel, but a pre-empted proposer waits a random while before trying again.",
            "dueling-leader" => "The same duel, but Β acts as president (the later name of the two proposers); Α stays quiet while it hears Β.",
            "lossy" => "A fifth of the messengers are lost, some duplicated, some overtaken. Progress is slower; safety is untouched.",
            "partition-heal" => "{Α, Β} cannot reach {Γ, Δ, Ε}. Only the majority side can pass ε. After the heal, Α's ballot is forced to ε.",
            "restart" => "Γ and Δ voted for α, then crashed and came back. Their ledgers still show the vote, so Β is forced to α.",
            "bench-lossy" => "The benchmark's workload: three proposers on a lossy network.",
            "kleppmann" => "W1 holds epoch 33 and pauses (a GC pause). Its lease expires; W2 gets 34 and writes. W1 wakes and writes with 33 — storage refuses.",
            "kleppmann-unfenced" => "The same pause, but storage does not check epochs: W1's late write with 33 overwrites W2's newer data.",
            "lone-pause" => "W1 alone holds epoch 33 and pauses past its lease; nobody takes over. When it wakes, 33 is still the highest epoch — but the lease is dead, and the article's fence refuses the write.",
            "lone-pause-token" => "The same pause, with Kleppmann's token alone: 33 is not below anything, so the write on a dead lease lands — counted, not refused.",
            "llm-in-loop" => "Each worker asks an LLM before every renewal and waits. From 6 s W1's next call stalls for 12 s: its lease expires, W2 takes over, W1 wakes up still believing.",
            "llm-in-loop-unfenced" => "The same stall with fencing off: the stale write lands and damages a row.",
            "llm-beside" => "The same stall, but the workers never call the LLM: a separate advisor asks it, afterwards, to explain a lapsed lease. Nothing breaks.",
            "llm-outage-drill" => "The LLM vendor goes down at 5 s. With the LLM inside the loop, nobody can renew: the lease loop stops.",
            "llm-flaky" => "A fast LLM inside the loop whose answers vary: mostly keep, sometimes release, sometimes broken JSON. The lease changes hands twice in 30 s for no reason.",
            "llm-throttled" => "A fast LLM inside the loop whose vendor rate-limits one call in five and refuses one in twenty. The loop obeys, and leases lapse while it waits.",
            "llm-ttl-stretched" => "The TTL stretched to 10 s to wait for a 2 s LLM. The holder crashes at 5 s, and nobody may write until its lease runs out.",
            "replicated-store" => "The store is three replicas of a Multi-Paxos group; its master S1 grants W2 epoch 33. S1 crashes at 4 s: S2 and S3 refuse a new master until S1's master lease has run out, S2 is elected at 4.8 s and renews W2's lease at 5.2 s — the lease outlives the failover. Then W2 pauses at 12.25 s; S2 grants W1 epoch 34, and W2's late write with 33 is refused.",
            "llm-article-cadence" => "The article's cadence — renew every 300 ms, a TTL of 1 s — with the fast API in the loop and no stall at all. Its p99 (0.76 s) is above TTL/2, so red flag 2 trips; in 30 s three leases lapse on slow answers, and W3 takes over from W1 at 20.4 s.",
            "clock-drift" => "W1's clock runs 20 % slow, the store's 10 % fast. Cut off from the store, W1 believes too long; fencing catches its writes.",
            "commit-2pc" => "RM1 asks to commit; the TM on RM1's node asks the others to prepare, collects five votes, writes Commit and tells everyone.",
            "commit-2pc-tm-crash" => "The TM's node crashes after every RM has prepared. The RMs are uncertain and hold their locks until it returns at 3 s.",
            "commit-paxos" => "Every RM's vote is decided by its own Synod on three acceptors (F = 1); the leader on RM1's node learns all five and says Commit.",
            "commit-paxos-tm-crash" => "The leader's node crashes at the same moment. The coordinator on RM2 takes over with a higher ballot and the RMs commit without waiting.",
            "commit-paxos-f0" => "F = 0: one acceptor, on the TM's node. The same messages as two-phase commit, arrow for arrow.",
            "multi-calm" => "Α runs phase 1 once and leads; from then on each command costs phase 2 only, two slots in flight. Reads are answered by the leader from its own copy.",
            "multi-leader-crash" => "Α has three slots in flight when it crashes; its accept for slot 2 reached nobody. Β and Γ are refused while the acceptors' lease promises to Α last; Δ then wins, recovers slots 1 and 3 from the promises (B3) and fills slot 2 with a no-op.",
            "multi-catch-up" => "Γ is cut off while Α and Β choose four slots. Healed at 0.7 s, it learns from a heartbeat that it is behind, asks for the slots it missed and applies them in order.",
            "two-masters" => "No lease. Α is cut off with C1 at 0.6 s but still believes it leads; Β is elected and C2 writes x = 2 through it. At 2.2 s Α answers C1's read from its own copy: x = 1, a stale read.",
            "master-lease" => "The same partition with a one-second master lease. Β waits out the promises given to Α before it is elected; Α's lease runs out first, so it cannot answer C1's read alone. After the heal Β answers it: x = 2.",
            "chubby-failover" => "A Chubby cell of five. C1 opens a session, takes lock 0 (generation 1) and writes to the file server F. The master Α crashes at 0.8 s. At 1.67 s C1's own estimate of its session lease runs out: jeopardy, and a 3 s grace period begins. Δ is elected at 1.75 s, once Α's master lease is over, and assumes the longest session lease Α could have granted. C1's KeepAlive reaches it at 1.96 s: safe, with a new epoch. At 2.9 s C1 writes again with generation 1. F asks the master it knew, Α, to check the sequencer: Α is gone, and the check is lost. C1 tries again at 3.4 s; F is sent on from Β to Δ and accepts the write at 3.45 s: the lock survived the failover.",
            "chubby-sequencer" => "C1 holds lock 0 (generation 1) and has written a to the file server F. At 0.9 s it is paused for 3 s. The master hears no KeepAlive and at 1.82 s ends C1's session through the log; C2 gets the lock at 2.54 s with generation 2. C1 wakes at 3.9 s still believing it holds the lock and writes b with generation 1. F has seen no higher generation, so it asks the cell: no longer current, refused. C2's write with generation 2 then passes.",
            _ => "",
        }
    }

    fn mc_size(&self, states: Option<usize>) -> String {
        match states {
            Some(n) => format!("A full search visits {} states.", group(n)),
            None => "How many states this search visits is not known in advance.".into(),
        }
    }

    fn mc_running(
        &self,
        states: usize,
        depth: u32,
        waiting: usize,
        rate: f64,
        left_s: Option<f64>,
    ) -> String {
        let left = left_s
            .map(|s| format!(", about {} left", self.duration((s * 1e6) as u64)))
            .unwrap_or_default();
        format!(
            "{} states, {} steps deep, {} waiting — {} states/s{left}",
            group(states),
            depth,
            group(waiting),
            group(rate as usize)
        )
    }

    fn mc_clean(&self, states: usize, secs: f64, truncated: bool) -> String {
        let secs = crate::float::fixed(secs, 1);
        if truncated {
            format!("No violation in the first {} states ({secs} s) — the search stopped at its limit, so not every schedule was checked.", group(states))
        } else {
            format!("No violation in {} states ({secs} s): every schedule of this configuration keeps every rule.", group(states))
        }
    }

    fn mc_found(&self, invariant: &str, steps: usize, states: usize) -> String {
        format!("{invariant} broken: the shortest counterexample takes {steps} steps (found among {} states).", group(states))
    }

    fn mc_also(&self, invariant: &str, steps: usize) -> String {
        format!("Also broken on the way: {invariant} (in {steps} steps).")
    }

    fn mc_cancelled(&self, states: usize) -> String {
        format!("Cancelled after {} states.", group(states))
    }

    fn mc_failed(&self, why: &str) -> String {
        format!("The model checker could not run ({why}). The work on screen is untouched; try again, or reload the page.")
    }

    fn mc_bad_number(&self, field: &str, typed: &str, min: u32, max: u32) -> String {
        format!("{field}: {typed:?} is not a whole number from {min} to {max}.")
    }

    fn mc_scenario_name(&self, invariant: &str) -> String {
        format!("Counterexample: {invariant}")
    }

    fn commit_protocol(
        &self,
        algorithm: crate::protocol::commit::Algorithm,
        faster: bool,
        f: usize,
    ) -> String {
        use crate::protocol::commit::Algorithm;
        match (algorithm, faster) {
            (Algorithm::TwoPhaseCommit, _) => "Two-phase commit".into(),
            (Algorithm::PaxosCommit, false) => format!("Paxos Commit, F = {f}"),
            (Algorithm::PaxosCommit, true) => format!("Faster Paxos Commit, F = {f}"),
        }
    }

    fn flag_detail(&self, which: usize, f: &crate::check::red_flags::RedFlags) -> String {
        let d = |us: u64| self.duration(us);
        let opt = |x: Option<u64>| x.map(d).unwrap_or_else(|| "—".into());
        match which {
            0 if f.depends_on_llm => format!(
                "The workers sent the LLM {} questions in this run and waited for the answers: the lease module talks to an LLM vendor, not only to the database.",
                f.worker_llm_calls
            ),
            0 if f.has_llm => format!(
                "No worker sent the LLM a question in this run; the advisor, a process apart from the lease loop, asked it {} times to explain a lapsed lease, and nothing waited for the answers.",
                f.other_llm_calls
            ),
            0 => "No LLM anywhere near the loop.".into(),
            1 => format!(
                "{}p99 {} (median {}) vs TTL/2 {}{}",
                if f.has_llm { "The LLM vendor's profile (the LLM behaviour setting, not this run's calls): " } else { "" },
                opt(f.llm_p99_us),
                opt(f.llm_p50_us),
                d(f.ttl_us / 2),
                if f.has_llm && !f.in_loop { " — harmless here: the loop does not wait on it." } else { "" }
            ),
            2 if f.ttl_stretched => format!(
                "TTL {} instead of {}: failover after a crash {} instead of {}; a cut-off holder keeps acting for up to {} instead of {}.",
                d(f.ttl_us),
                d(f.baseline_ttl_us),
                opt(f.failover_us),
                opt(f.baseline_failover_us),
                d(f.exposure_us),
                d(f.baseline_exposure_us)
            ),
            2 => format!("TTL {} — not sized for the LLM.", d(f.ttl_us)),
            _ => format!(
                "With the LLM down, some worker holds the lease {} % of the time (normally {} %), and {} orders are written (normally {}).",
                crate::float::fixed(f.drill_held_fraction * 100.0, 0),
                crate::float::fixed(f.held_fraction * 100.0, 0),
                f.drill_writes,
                f.writes
            ),
        }
    }

    fn human(&self, h: &crate::scenario::latency::HumanDuration) -> String {
        use crate::scenario::latency::Unit::*;
        let one = |a: &crate::scenario::latency::Amount<crate::scenario::latency::Unit>| {
            let n = super::amount(a.mantissa, a.decimals);
            let plural = !(a.mantissa == 1 && a.decimals == 0);
            let unit = match (a.unit, plural) {
                (Millisecond, _) => "ms".to_string(),
                (Second, _) => "s".into(),
                (Minute, _) => "min".into(),
                (Hour, _) => "h".into(),
                (Day, false) => "day".into(),
                (Day, true) => "days".into(),
                (Month, false) => "month".into(),
                (Month, true) => "months".into(),
                (Year, false) => "year".into(),
                (Year, true) => "years".into(),
                (Century, false) => "century".into(),
                (Century, true) => "centuries".into(),
                (Millennium, false) => "millennium".into(),
                (Millennium, true) => "millennia".into(),
            };
            format!("{n} {unit}")
        };
        let mut s = format!("{}{}", if h.approx { "≈" } else { "" }, one(&h.major));
        if let Some(m) = &h.minor {
            s.push(' ');
            s.push_str(&one(m));
        }
        s
    }

    fn ballots_link_error(&self, e: &crate::scenario::ballots::link::LinkError) -> String {
        use crate::scenario::ballots::link::{LinkError::*, MAX_FIELD, MAX_ROWS};
        let what = match e {
            Empty => "it has no rows".to_string(),
            TooManyRows(n) => format!("it has {n} rows, more than {MAX_ROWS}"),
            Fields { row, found } => format!(
                "row {row} has {found} fields where a row has four (number.decree.quorum.voters)"
            ),
            Text { row } => format!(
                "row {row}'s number or decree is not percent-encoded text of at most {MAX_FIELD} characters"
            ),
            Set { row, voters, typed, of } => format!(
                "row {row}'s {} \"{typed}\" is not a set of the {of} priests (a number from 0 to {})",
                if *voters { "voters" } else { "quorum" },
                (1u64 << of) - 1
            ),
        };
        format!("This link's ballot table cannot be read: {what}. Was it cut short? The table on screen is unchanged.")
    }

    fn ballot_finding(&self, f: &super::BallotFinding) -> String {
        use super::BallotFinding::*;
        match f {
            B1Holds => "B1 holds: every ballot has its own number.".into(),
            B1Duplicate { number, count } => format!("B1 broken: {count} ballots are numbered {number}."),
            B2Holds => "B2 holds: every two quorums share a priest.".into(),
            B2Disjoint { a, b } => format!("B2 broken: the quorums of ballots {a} and {b} share no priest."),
            B3Holds { forced, free } => format!(
                "B3 holds: each of the {forced} forced ballot{} keeps the decree of the latest earlier vote in its quorum; {free} {} free.",
                if *forced == 1 { "" } else { "s" },
                if *free == 1 { "is" } else { "are" }
            ),
            B3Broken { numbers } => format!("B3 broken: ballot {numbers} proposes another decree than the one its quorum's latest earlier vote forces."),
            Free => "free: no quorum member voted in an earlier ballot".into(),
            Forced { by, decree, voters, satisfied, ambiguous } => format!(
                "{}forced to {decree} by {voters}'s vote in ballot {by}{}",
                if *satisfied { "" } else { "B3 broken: " },
                if *ambiguous { " (ambiguous: two ballots share that number)" } else { "" }
            ),
            Successful => "successful: every quorum member voted".into(),
            Pinned { first, decree } => format!("Theorem 1 holds: ballot {first} succeeded, and every later ballot is pinned to {decree}."),
            NoSuccess => "No ballot has succeeded yet: nothing is decided.".into(),
            Disagree { a, b } => format!("Consistency broken: ballots {a} and {b} both succeeded with different decrees."),
            EmptyQuorum { number } => format!("Ballot {number}: a quorum cannot be empty."),
            EmptyDecree { number } => format!("Ballot {number}: the decree is missing."),
            BadNumber { typed } => format!("“{typed}” is not a ballot number: use a whole number."),
            VoterOutsideQuorum { number, priest } => format!("Ballot {number}: {priest} voted without being in the quorum (allowed by the maths, never done by the protocol)."),
            Reconstructed => "voters reconstructed (the paper's figure does not show them)".into(),
        }
    }

    fn mark(&self, names: &[String], note: &crate::protocol::Note) -> Option<String> {
        crate::trace::label::note(names, note).map(|(_, text)| text)
    }

    fn refusal(&self, names: &[String], r: &Refused) -> String {
        match (r.reason, r.lease) {
            (Refusal::RowFenced, _) => format!(
                "row fenced by a higher epoch — the row was written with epoch {}, above {}",
                r.row, r.epoch
            ),
            (Refusal::LeaseExpired, Some(l)) => format!(
                "lease expired — epoch {} ran out at {}, and the storage's clock reads {}",
                r.epoch,
                self.duration(l.expires_at.0),
                self.duration(r.now_us)
            ),
            (Refusal::LeaseExpired, None) => {
                format!("lease expired — epoch {} is no longer live", r.epoch)
            }
            (Refusal::LeaseHeldByAnother, Some(l)) if l.holder == r.writer => {
                format!(
                    "lease held by another — the live lease is now epoch {}, not {}",
                    l.epoch, r.epoch
                )
            }
            (Refusal::LeaseHeldByAnother, Some(l)) => {
                format!(
                    "lease held by another — {} holds the live lease, epoch {}",
                    name(names, l.holder),
                    l.epoch
                )
            }
            (Refusal::LeaseHeldByAnother, None) => {
                "lease held by another — no lease has been granted".into()
            }
        }
    }
}
