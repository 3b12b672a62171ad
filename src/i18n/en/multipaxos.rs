//! The narration of Multi-Paxos, in English.

use super::{name, En};
use crate::i18n::{join_names, Speak};
use crate::protocol::lease_row::Cas;
use crate::protocol::multipaxos::{
    Cmd, LeaseEnd, MpCommand, MpMsg, MpMutation, MpNote, Op, Outcome, Pick, SessionEnd, Verdict,
    KEYS,
};
use crate::sim::NodeId;

fn key(k: u8) -> &'static str {
    KEYS.get(k as usize).copied().unwrap_or("?")
}

/// A command in a sentence: quoted, since some read as verbs ("Α puts
/// “open a session” in slot 1").
pub fn cmd(c: &Cmd) -> String {
    match c.op {
        Op::Noop => "a no-op".into(),
        _ => format!("“{}”", cmd_words(c)),
    }
}

fn cmd_words(c: &Cmd) -> String {
    match c.op {
        Op::Noop => "no-op".into(),
        Op::Put { key: k, value } => format!("{} = {value}", key(k)),
        Op::Get { key: k } => format!("read {}", key(k)),
        Op::Acquire { lock } => format!("take lock {lock}"),
        Op::Release { lock } => format!("release lock {lock}"),
        Op::OpenSession => "open a session".into(),
        Op::EndSession { .. } => "end a session that was not kept alive".into(),
        Op::Check { lock, generation } => {
            format!("check that generation {generation} still holds lock {lock}")
        }
        Op::LeaseCas { ttl_us, .. } => format!(
            "acquire or renew the lease for {}",
            crate::sim::time::human_us(ttl_us)
        ),
        Op::LeaseRelease { epoch, .. } => format!("give up the lease of epoch {epoch}"),
    }
}

fn outcome(names: &[String], o: &Outcome) -> String {
    match *o {
        Outcome::Done => "done".into(),
        Outcome::Value {
            value: Some(v),
            version,
        } => format!("{v} (written in slot {})", version.0),
        Outcome::Value { value: None, .. } => "nothing written yet".into(),
        Outcome::Written { version } => format!("written in slot {}", version.0),
        Outcome::Granted { generation } => format!("granted, generation {generation}"),
        Outcome::Busy { holder } => format!("busy, {} holds it", name(names, holder)),
        Outcome::Released => "released".into(),
        Outcome::NotHeld => "not held".into(),
        Outcome::SessionOpened => "the session is open".into(),
        Outcome::NoSession => "refused: no open session".into(),
        Outcome::Sequencer { current: true } => "yes, still current".into(),
        Outcome::Sequencer { current: false } => "no, no longer current".into(),
        Outcome::Lease {
            cas: Cas::Renewed { row },
            ..
        } => format!("renewed, epoch {}", row.epoch),
        Outcome::Lease {
            cas: Cas::Granted { row, .. },
            ..
        } => format!("granted, epoch {}", row.epoch),
        Outcome::Lease {
            cas: Cas::Refused { holder, epoch },
            ..
        } => format!("refused: {} holds epoch {epoch}", name(names, holder)),
        Outcome::LeaseReleased { row } => format!("the lease of epoch {} is given up", row.epoch),
    }
}

/// A command in a few words (the log's cells, the clients' lines).
pub fn cmd_short(names: &[String], c: &Cmd) -> String {
    let who = name(names, c.client);
    match c.op {
        Op::OpenSession => format!("{who} opens"),
        Op::EndSession { client } => format!("end {}", name(names, client)),
        Op::Acquire { lock } => format!("{who} lock {lock}"),
        Op::Release { lock } => format!("{who} unlock {lock}"),
        _ => crate::trace::multipaxos::cmd_label(c),
    }
}

/// What a command returned, in a few words.
pub fn outcome_short(o: &Outcome) -> String {
    match *o {
        Outcome::Done => "done".into(),
        Outcome::Value { value: Some(v), .. } => v.to_string(),
        Outcome::Value { value: None, .. } => "—".into(),
        Outcome::Written { version } => format!("ok #{}", version.0),
        Outcome::Granted { generation } => format!("g{generation}"),
        Outcome::Busy { .. } => "busy".into(),
        Outcome::Released => "released".into(),
        Outcome::NotHeld => "not held".into(),
        Outcome::SessionOpened => "open".into(),
        Outcome::NoSession => "no session".into(),
        Outcome::Sequencer { current: true } => "current".into(),
        Outcome::Sequencer { current: false } => "not current".into(),
        Outcome::Lease {
            cas: Cas::Refused { .. },
            ..
        } => "refused".into(),
        Outcome::Lease { cas, .. } => format!("epoch {}", cas.epoch().unwrap_or(0)),
        Outcome::LeaseReleased { .. } => "given up".into(),
    }
}

fn verdict(v: Verdict) -> String {
    match v {
        Verdict::Accepted => "written".into(),
        Verdict::Stale { highest } => format!("refused: it has already seen generation {highest}"),
        Verdict::NotCurrent => "refused: the cell says that sequencer is no longer current".into(),
    }
}

pub fn msg_kind(m: &MpMsg) -> String {
    match m {
        MpMsg::Request { .. } => "request".into(),
        MpMsg::Reply { .. } => "reply".into(),
        MpMsg::Redirect { .. } => "redirect".into(),
        MpMsg::Heartbeat { .. } => "heartbeat".into(),
        MpMsg::HeartbeatAck { .. } => "heartbeat ack".into(),
        MpMsg::CatchUp { .. } => "catch-up request".into(),
        MpMsg::Entries { .. } => "log entries".into(),
        MpMsg::Nack { .. } => "refusal".into(),
        MpMsg::KeepAlive { .. } => "KeepAlive".into(),
        MpMsg::KeepAliveReply { .. } => "KeepAlive reply".into(),
        MpMsg::SessionGone => "session ended".into(),
        MpMsg::Write { .. } => "file write".into(),
        MpMsg::WriteReply { .. } => "file server's answer".into(),
        other => format!("{} ({})", other.type_name(), other.phase()),
    }
}

pub fn message(s: &En, names: &[String], f: &str, to: &str, m: &MpMsg, many: bool) -> String {
    let b = |x| s.ballot(names, x);
    match m {
        MpMsg::Request { cmd: c } => format!("{f} asks {to}: {}.", cmd(c)),
        MpMsg::Reply {
            outcome: o,
            slot: None,
            ..
        } => {
            format!("{f} answers {to} from its own copy: {}.", outcome(names, o))
        }
        MpMsg::Reply { outcome: o, .. } => format!("{f} answers {to}: {}.", outcome(names, o)),
        MpMsg::Redirect {
            leader: Some(l), ..
        } => format!("{f} tells {to}: I do not lead; ask {}.", name(names, *l)),
        MpMsg::Redirect { leader: None, .. } => {
            format!("{f} tells {to}: I do not lead, and I do not know who does.")
        }
        MpMsg::Prepare { ballot, from } if many => format!(
            "{f} runs for leader with ballot {}: prepare (1a) to {to}, for every slot from {} on.",
            b(*ballot),
            from.0
        ),
        MpMsg::Prepare { ballot, from } => format!(
            "{f} sends prepare (1a) {} for slots from {} to {to}.",
            b(*ballot),
            from.0
        ),
        MpMsg::Promise { ballot, votes, .. } if votes.is_empty() => {
            format!(
                "{f} promises ballot {} to {to}; it has voted in none of those slots.",
                b(*ballot)
            )
        }
        MpMsg::Promise { ballot, votes, .. } => format!(
            "{f} promises ballot {} to {to}, reporting its votes in {} slot{}.",
            b(*ballot),
            votes.len(),
            if votes.len() == 1 { "" } else { "s" }
        ),
        MpMsg::Accept {
            ballot,
            slot,
            cmd: c,
        } => {
            format!(
                "{f} asks {to} to vote for {} in slot {} (ballot {}, 2a).",
                cmd(c),
                slot.0,
                b(*ballot)
            )
        }
        MpMsg::Accepted { slot, cmd: c, .. } => format!(
            "{f} votes for {} in slot {} and tells {to} (2b).",
            cmd(c),
            slot.0
        ),
        MpMsg::Decided { slot, cmd: c } => format!(
            "{f} announces to {to}: slot {} holds {} (3).",
            slot.0,
            cmd(c)
        ),
        MpMsg::Nack { ballot, promised } => {
            format!(
                "{f} refuses {to}'s ballot {}: it promised {}.",
                b(*ballot),
                b(*promised)
            )
        }
        MpMsg::Heartbeat { round, .. } if many => {
            format!("{f}, leader, sends heartbeat {round} to {to} — and asks for its lease.")
        }
        MpMsg::Heartbeat { round, .. } => format!("{f} sends heartbeat {round} to {to}."),
        MpMsg::HeartbeatAck { round, .. } => format!("{f} acknowledges heartbeat {round} to {to}."),
        MpMsg::CatchUp { from } => format!(
            "{f} is behind and asks {to} for the slots from {} on.",
            from.0
        ),
        MpMsg::Entries { entries } => format!(
            "{f} sends {to} {} chosen slot{}.",
            entries.len(),
            if entries.len() == 1 { "" } else { "s" }
        ),
        MpMsg::KeepAlive { .. } => format!("{f} sends {to} a KeepAlive for its session."),
        MpMsg::KeepAliveReply { epoch, lease_us } => {
            format!(
                "{f}, master of epoch {}, extends {to}'s session lease by {}.",
                b(*epoch),
                s.duration(*lease_us)
            )
        }
        MpMsg::SessionGone => {
            format!("{f} tells {to}: your session has ended, and your locks with it.")
        }
        MpMsg::Write {
            lock,
            generation,
            value,
        } => {
            format!("{f} writes {value} to {to}, with the sequencer of lock {lock}, generation {generation}.")
        }
        MpMsg::WriteReply {
            generation,
            verdict: v,
            ..
        } => format!(
            "{f} answers {to}'s write (generation {generation}): {}.",
            verdict(*v)
        ),
    }
}

pub fn note(s: &En, names: &[String], who: &str, n: &MpNote) -> String {
    let b = |x| s.ballot(names, x);
    let nm = |id: NodeId| name(names, id).to_string();
    match n {
        MpNote::Asked { cmd: c } => format!("{who} sends its command: {}.", cmd(c)),
        MpNote::Answered { outcome: o, .. } => format!("{who} has its answer: {}.", outcome(names, o)),
        MpNote::BallotStarted { ballot, .. } => format!("{who} starts ballot {}.", b(*ballot)),
        MpNote::Elected { ballot, forced, noops } => format!(
            "{who} has promises from a majority for ballot {}: it leads. It re-proposes {forced} slot{} (B3) and fills {noops} gap{} with no-ops before any new command.",
            b(*ballot),
            if *forced == 1 { "" } else { "s" },
            if *noops == 1 { "" } else { "s" }
        ),
        MpNote::SlotPicked { slot, cmd: c, pick: Pick::Forced { by }, .. } => format!(
            "Slot {}: a vote for {} in ballot {} was reported, the highest — {who} must propose it (B3).",
            slot.0,
            cmd(c),
            b(*by)
        ),
        MpNote::SlotPicked { slot, pick: Pick::Noop, .. } => {
            format!("Slot {}: nobody reported a vote — a gap. {who} fills it with a no-op.", slot.0)
        }
        MpNote::SlotPicked { slot, cmd: c, .. } => format!("{who} puts {} in slot {}.", cmd(c), slot.0),
        MpNote::SteppedDown { ballot, by } => format!("{who} hears of ballot {}, above its {}: it steps down.", b(*by), b(*ballot)),
        MpNote::LeaseRefused { candidate, grantee } => format!(
            "{who} refuses {}: it promised {} not to follow another master until its lease runs out.",
            // A candidate is one of the acceptors it asks ("Β refuses Β").
            if nm(*candidate) == who { "its own candidacy, as an acceptor".into() } else { nm(*candidate) },
            if *grantee == NodeId::NET { "someone, before it restarted,".into() } else { nm(*grantee) }
        ),
        MpNote::Learned { slot, cmd: c } => format!("{who} writes slot {} in its log: {}.", slot.0, cmd(c)),
        MpNote::Applied { slot, cmd: c, .. } => format!("{who} applies slot {}: {}.", slot.0, cmd(c)),
        MpNote::CaughtUp { from, to } => format!("{who} has caught up: slots {} to {} filled in.", from.0, to.0.saturating_sub(1)),
        MpNote::LeaseHeld { .. } => format!("{who} believes it holds the master lease."),
        MpNote::LeaseLost { why } => format!("{who} no longer believes it holds the master lease ({}).", lease_end(*why)),
        MpNote::ReadServed { key: k, value, version, .. } => format!(
            "{who} answers a read of {} from its own copy: {} (written in slot {}).",
            key(*k),
            value.map(|v| v.to_string()).unwrap_or_else(|| "nothing".into()),
            version.0
        ),
        MpNote::Chosen { slot, cmd: c, members, .. } => format!(
            "A majority ({}) voted for {} in slot {}: it is chosen.",
            join_names(names, members.iter(), ", "),
            cmd(c),
            slot.0
        ),
        MpNote::MasterLeaseHeld { holder, until_us, .. } => format!(
            // Said once: the renewals that push the end on are the lane's.
            "{} holds the master lease until {} (by its own clock, shortened for drift); each heartbeat a majority acknowledges pushes that end on.",
            nm(*holder),
            s.duration(*until_us)
        ),
        MpNote::MasterLeaseReleased { holder, why } => format!("{}'s master lease ends: {}.", nm(*holder), lease_end(*why)),
        MpNote::SessionTimedOut { client } => format!(
            "{who} has had no KeepAlive from {} for a whole session lease: it ends the session through the log, freeing its locks.",
            nm(*client)
        ),
        MpNote::Jeopardy => format!(
            "{who}'s own estimate of its session lease has run out: the session is in jeopardy, and the grace period begins."
        ),
        MpNote::SessionSafe { epoch, failover: true } => {
            format!("A new master, epoch {}, answered {who} within the grace period: the session is safe, its locks kept.", b(*epoch))
        }
        MpNote::SessionSafe { .. } => format!("A master answered {who} in time: the session is safe again."),
        MpNote::SessionLost { why } => format!("{who}'s session is lost ({}): it holds no lock any more.", session_end(*why)),
        MpNote::NotHolding { lock } => format!("{who} would write under lock {lock}, but knows it no longer holds it: it does not write."),
        MpNote::WriteChecked { client, generation, verdict: v, .. } => {
            format!("{who} checks {}'s write with generation {generation}: {}.", nm(*client), verdict(*v))
        }
    }
}

fn session_end(w: SessionEnd) -> &'static str {
    match w {
        SessionEnd::Grace => "the grace period ran out",
        SessionEnd::Ended => "the cell ended it",
    }
}

fn lease_end(w: LeaseEnd) -> &'static str {
    match w {
        LeaseEnd::Expired => "it ran out",
        LeaseEnd::SteppedDown => "it stepped down",
        LeaseEnd::Crashed => "it crashed",
    }
}

pub fn command(names: &[String], c: &MpCommand) -> String {
    match c {
        MpCommand::Put { node, key, value } => {
            format!("{} is asked to write {key} = {value}.", name(names, *node))
        }
        MpCommand::Get { node, key } => format!("{} is asked to read {key}.", name(names, *node)),
    }
}

pub fn mutation_title(m: MpMutation) -> &'static str {
    match m {
        MpMutation::NoLeaseWait => "no lease wait: a new master serves at once",
        MpMutation::LeaseNoDriftMargin => "lease without drift margin",
        MpMutation::SkipPhase1OnTakeover => "skip phase 1 on takeover",
        MpMutation::NoOpFreeGaps => "gaps filled anew, votes not recovered",
    }
}
