//! Same scenario + seed ⇒ the same trace, always. Golden hashes catch a
//! simulator whose behaviour changed silently; the checkpoint and injection
//! tests prove that the time machine's jumps replay exactly.

use paxos_island::scenario::builtin;
use paxos_island::scenario::run::{RecordOptions, Run};
use paxos_island::scenario::{Scheduled, Simulator};
use paxos_island::sim::fault::Fault;
use paxos_island::sim::{NodeId, SimTime};

/// The trace hash of every built-in scenario at its built-in seed. If a
/// change to the simulator or a protocol is *meant* to change behaviour,
/// update these (the failure message prints the new table).
const GOLDEN: &[(&str, &str)] = &[
    ("calm", "537e1b57845130cf"),
    ("forced", "927c1f4feca52876"),
    ("crash-f", "b8e70f208497c1ce"),
    ("crash-f-plus-1", "8744713300771876"),
    ("dueling", "dd5169161fbc26f9"),
    ("dueling-backoff", "fe4c8cf34bc1c125"),
    ("dueling-leader", "14cd30bbe49f65cd"),
    ("lossy", "9d81eb80ae7fa97b"),
    ("partition-heal", "82aad79e3d562db1"),
    ("restart", "ad3d45ffb765957a"),
    ("bench-lossy", "bdafc7035bab5d86"),
    ("kleppmann", "8d2f08c3fb867f89"),
    ("kleppmann-unfenced", "36a2678a58f336c7"),
    ("lone-pause", "c509058402e21cdc"),
    ("lone-pause-token", "83868209ce2b5243"),
    ("llm-in-loop", "48c04fe871e7dc70"),
    ("llm-in-loop-unfenced", "f78a07cd26cbc4e9"),
    ("llm-beside", "8a707b42eae6a6f9"),
    ("llm-outage-drill", "55987131470cbb4b"),
    ("clock-drift", "6e341aae596fbb26"),
    ("llm-article-cadence", "d8f3fa967305e623"),
    ("llm-flaky", "31de5b8c2715e9d1"),
    ("llm-throttled", "0f3242d6a6dd2f2b"),
    ("llm-ttl-stretched", "6deaf7f662c27cdc"),
    ("replicated-store", "797e2356a1f424e2"),
    ("multi-calm", "4930165d91943404"),
    ("multi-leader-crash", "856dc5caa135c321"),
    ("multi-catch-up", "fd1fd836a3ed3cc4"),
    ("two-masters", "661c517bfff2788e"),
    ("master-lease", "f960367c11c4f037"),
    ("chubby-failover", "438345edf7672316"),
    ("chubby-sequencer", "c906ec2ea51a334f"),
    ("commit-2pc", "f28093a9207b732b"),
    ("commit-2pc-tm-crash", "9e3e128dbced834a"),
    ("commit-paxos", "6800a98347193f14"),
    ("commit-paxos-tm-crash", "adfb7e6d6cb2d429"),
    ("commit-paxos-f0", "75fdd959ca8f6171"),
];

#[test]
fn every_builtin_scenario_gives_the_same_trace_twice() {
    for name in builtin::names() {
        let s = builtin::get(name).unwrap();
        let a = Run::record(&s).unwrap();
        let b = Run::record(&s).unwrap();
        assert_eq!(a.trace, b.trace, "{name}: two runs differ");
        assert_eq!(a.hash(), b.hash());
    }
}

#[test]
fn golden_trace_hashes() {
    let mut table = String::new();
    let mut wrong = Vec::new();
    assert_eq!(
        GOLDEN.len(),
        builtin::names().len(),
        "every built-in scenario needs a golden hash"
    );
    for name in builtin::names() {
        let got = Run::record(&builtin::get(name).unwrap()).unwrap().hash();
        table.push_str(&format!("    (\"{name}\", \"{got}\"),\n"));
        let want = GOLDEN.iter().find(|(n, _)| *n == name).map(|(_, h)| *h);
        if want != Some(got.as_str()) {
            wrong.push(name);
        }
    }
    assert!(
        wrong.is_empty(),
        "trace hashes changed for {wrong:?}; the current table is:\n{table}"
    );
}

#[test]
fn a_different_seed_gives_a_different_run() {
    let s = builtin::get("lossy").unwrap();
    let a = Run::record(&s).unwrap();
    let b = Run::record(&s.clone().with_seed(7)).unwrap();
    assert_ne!(a.hash(), b.hash());
}

/// Compare two simulator states by what the views read from them.
fn same_world(a: &Simulator, b: &Simulator) -> bool {
    a.now() == b.now()
        && a.steps() == b.steps()
        && (0..a.node_count()).all(|i| {
            let n = NodeId(i as u8);
            a.node(n) == b.node(n)
                && a.status(n) == b.status(n)
                && a.local_time(n) == b.local_time(n)
        })
}

#[test]
fn seeking_through_checkpoints_equals_running_straight() {
    for name in ["lossy", "dueling", "kleppmann", "llm-in-loop"] {
        let s = builtin::get(name).unwrap();
        let run = Run::record_with(
            &s,
            RecordOptions {
                checkpoint_every: 17,
                max_events: 1_000_000,
            },
        )
        .unwrap();
        let end = run.end.0;
        for k in 1..12u64 {
            let t = SimTime(end * k / 12 + k * 977);
            let jumped = run.state_at(t);
            let mut straight = run.checkpoints[0].sim.clone();
            straight.set_recording(false);
            straight.run_until(t.min(run.end));
            assert!(
                same_world(&jumped, &straight),
                "{name}: state at {t:?} differs"
            );
        }
        // Backwards and forwards again through `seek`.
        let mut cur = run.state_at(SimTime(end));
        run.seek(&mut cur, SimTime(end / 3));
        assert!(same_world(&cur, &run.state_at(SimTime(end / 3))));
        // Forward: a step within a checkpoint's reach, then a long jump
        // (which starts again from a later checkpoint).
        for t in [end / 3 + 1_000, end * 5 / 6] {
            let before = cur.steps();
            run.seek(&mut cur, SimTime(t));
            assert!(cur.steps() >= before, "{name}: seeking forward went back");
            assert!(
                same_world(&cur, &run.state_at(SimTime(t))),
                "{name}: seeking forward to {t} differs"
            );
        }
    }
}

#[test]
fn a_fault_injected_live_replays_from_the_scenario() {
    let s = builtin::get("calm").unwrap();
    let mut sim = Simulator::new(s.build().unwrap(), true);
    sim.run_until(SimTime::from_ms(120));
    let at = sim.inject(Fault::Crash { node: NodeId(2) });
    sim.run_until(SimTime(s.stop_at_us));
    let mut live: Vec<_> = Vec::new();
    live.extend(sim.drain_events());

    let mut recorded = s.clone();
    recorded.faults.push(Scheduled {
        at_us: at.0,
        fault: Fault::Crash { node: "Γ".into() }.into(),
    });
    let mut replay = Simulator::new(recorded.build().unwrap(), true);
    replay.run_until(SimTime(s.stop_at_us));
    let replayed: Vec<_> = replay.drain_events().collect();
    assert_eq!(
        live, replayed,
        "the branch must replay from the recorded scenario"
    );
}

/// A stale timer (one set again or cancelled) left in the queue just before
/// an instant must not carry the simulator past it: a recording ends at its
/// stop time, and the world at `t` has done nothing later than `t`. (The
/// step over a stale entry used to go on to the next live one whatever its
/// time: 15 built-in runs recorded a few events after their stop, and a
/// seek between two events could show the next one early.)
#[test]
fn a_recording_and_a_seek_stop_at_their_instant() {
    for name in builtin::names() {
        let s = builtin::get(name).unwrap();
        let run = Run::record(&s).unwrap();
        let stop = SimTime(s.stop_at_us);
        if let Some(e) = run.trace.iter().find(|e| e.t > stop) {
            panic!(
                "{name}: event {} at {} µs, after the stop at {} µs",
                e.seq, e.t.0, stop.0
            );
        }
        for w in run.trace.windows(2).step_by(7) {
            let t = SimTime(w[1].t.0.saturating_sub(1));
            if t < w[0].t {
                continue;
            }
            let sim = run.state_at(t);
            assert_eq!(
                sim.now(),
                t,
                "{name}: the world asked for at {} µs stands at {} µs",
                t.0,
                sim.now().0
            );
        }
    }
}
