//! マルチ Paxos の実況（日本語）。

use super::{name, Ja};
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

/// A command in a sentence, in 「」 (some read as verbs: 「セッションを開く」).
pub fn cmd(c: &Cmd) -> String {
    match c.op {
        Op::Noop => "「no-op」（何もしない命令）".into(),
        _ => format!("「{}」", cmd_words(c)),
    }
}

fn cmd_words(c: &Cmd) -> String {
    match c.op {
        Op::Noop => "no-op".into(),
        Op::Put { key: k, value } => format!("{} = {value}", key(k)),
        Op::Get { key: k } => format!("{} の読み出し", key(k)),
        Op::Acquire { lock } => format!("ロック {lock} の取得"),
        Op::Release { lock } => format!("ロック {lock} の解放"),
        Op::OpenSession => "セッションを開く".into(),
        Op::EndSession { .. } => "保たれなかったセッションを終える".into(),
        Op::Check { lock, generation } => format!("ロック {lock} の世代 {generation} はまだ有効か"),
        Op::LeaseCas { ttl_us, .. } => format!(
            "リースの取得・更新（{}）",
            crate::sim::time::human_us(ttl_us)
        ),
        Op::LeaseRelease { epoch, .. } => format!("エポック {epoch} のリースを手放す"),
    }
}

fn outcome(names: &[String], o: &Outcome) -> String {
    match *o {
        Outcome::Done => "完了".into(),
        Outcome::Value {
            value: Some(v),
            version,
        } => format!("{v}（スロット {} で書かれた値）", version.0),
        Outcome::Value { value: None, .. } => "まだ何も書かれていない".into(),
        Outcome::Written { version } => format!("スロット {} で書き込み済み", version.0),
        Outcome::Granted { generation } => format!("取得（世代 {generation}）"),
        Outcome::Busy { holder } => format!("使用中（{} が保持）", name(names, holder)),
        Outcome::Released => "解放済み".into(),
        Outcome::NotHeld => "保持していない".into(),
        Outcome::SessionOpened => "セッションが開いた".into(),
        Outcome::NoSession => "拒否：セッションが開いていない".into(),
        Outcome::Sequencer { current: true } => "はい、まだ有効".into(),
        Outcome::Sequencer { current: false } => "いいえ、もう有効ではない".into(),
        Outcome::Lease {
            cas: Cas::Renewed { row },
            ..
        } => format!("更新（エポック {}）", row.epoch),
        Outcome::Lease {
            cas: Cas::Granted { row, .. },
            ..
        } => format!("付与（エポック {}）", row.epoch),
        Outcome::Lease {
            cas: Cas::Refused { holder, epoch },
            ..
        } => format!("拒否：{} がエポック {epoch} を保持", name(names, holder)),
        Outcome::LeaseReleased { row } => format!("エポック {} のリースを返却", row.epoch),
    }
}

/// A command in a few words (the log's cells, the clients' lines).
pub fn cmd_short(names: &[String], c: &Cmd) -> String {
    let who = name(names, c.client);
    match c.op {
        Op::Noop => "no-op".into(),
        Op::Put { key: k, value } => format!("{}={value}", key(k)),
        Op::Get { key: k } => format!("{} を読む", key(k)),
        Op::OpenSession => format!("{who} 開始"),
        Op::EndSession { client } => format!("{} 終了", name(names, client)),
        Op::Acquire { lock } => format!("{who} ロック {lock}"),
        Op::Release { lock } => format!("{who} 解放 {lock}"),
        Op::Check { lock, generation } => format!("確認 {lock}/世代{generation}"),
        Op::LeaseCas { .. } => format!("{who} リース"),
        Op::LeaseRelease { epoch, .. } => format!("{who} 返却 e{epoch}"),
    }
}

/// What a command returned, in a few words.
pub fn outcome_short(o: &Outcome) -> String {
    match *o {
        Outcome::Done => "完了".into(),
        Outcome::Value { value: Some(v), .. } => v.to_string(),
        Outcome::Value { value: None, .. } => "—".into(),
        Outcome::Written { version } => format!("書込 #{}", version.0),
        Outcome::Granted { generation } => format!("世代 {generation}"),
        Outcome::Busy { .. } => "使用中".into(),
        Outcome::Released => "解放".into(),
        Outcome::NotHeld => "未保持".into(),
        Outcome::SessionOpened => "開始".into(),
        Outcome::NoSession => "セッションなし".into(),
        Outcome::Sequencer { current: true } => "有効".into(),
        Outcome::Sequencer { current: false } => "無効".into(),
        Outcome::Lease {
            cas: Cas::Refused { .. },
            ..
        } => "拒否".into(),
        Outcome::Lease { cas, .. } => format!("エポック {}", cas.epoch().unwrap_or(0)),
        Outcome::LeaseReleased { .. } => "返却".into(),
    }
}

fn verdict(v: Verdict) -> String {
    match v {
        Verdict::Accepted => "書き込みました".into(),
        Verdict::Stale { highest } => format!("拒否：すでに世代 {highest} を見ています"),
        Verdict::NotCurrent => "拒否：セルによればそのシーケンサはもう有効ではありません".into(),
    }
}

pub fn msg_kind(m: &MpMsg) -> String {
    match m {
        MpMsg::Request { .. } => "要求".into(),
        MpMsg::Reply { .. } => "応答".into(),
        MpMsg::Redirect { .. } => "転送の案内".into(),
        MpMsg::Heartbeat { .. } => "ハートビート".into(),
        MpMsg::HeartbeatAck { .. } => "ハートビート確認".into(),
        MpMsg::CatchUp { .. } => "追いつき要求".into(),
        MpMsg::Entries { .. } => "ログの送付".into(),
        MpMsg::Nack { .. } => "拒否".into(),
        MpMsg::KeepAlive { .. } => "キープアライブ".into(),
        MpMsg::KeepAliveReply { .. } => "キープアライブの応答".into(),
        MpMsg::SessionGone => "セッション終了の通知".into(),
        MpMsg::Write { .. } => "ファイルへの書き込み".into(),
        MpMsg::WriteReply { .. } => "ファイルサーバの応答".into(),
        other => format!("{}（{}）", other.type_name(), other.phase()),
    }
}

pub fn message(s: &Ja, names: &[String], f: &str, to: &str, m: &MpMsg, many: bool) -> String {
    let b = |x| s.ballot(names, x);
    match m {
        MpMsg::Request { cmd: c } => format!("{f} が {to} に依頼します：{}。", cmd(c)),
        MpMsg::Reply { outcome: o, slot: None, .. } => format!("{f} が自分の写しから {to} に答えます：{}。", outcome(names, o)),
        MpMsg::Reply { outcome: o, .. } => format!("{f} が {to} に答えます：{}。", outcome(names, o)),
        MpMsg::Redirect { leader: Some(l), .. } => {
            format!("{f} が {to} に伝えます：私はリーダーではありません。{} に尋ねてください。", name(names, *l))
        }
        MpMsg::Redirect { leader: None, .. } => format!("{f} が {to} に伝えます：私はリーダーではなく、誰がリーダーかも知りません。"),
        MpMsg::Prepare { ballot, from } if many => format!(
            "{f} が投票 {} でリーダーに立候補します：スロット {} 以降のすべてについて prepare（1a）を {to} に送ります。",
            b(*ballot),
            from.0
        ),
        MpMsg::Prepare { ballot, from } => format!("{f} がスロット {} 以降の prepare（1a）{} を {to} に送ります。", from.0, b(*ballot)),
        MpMsg::Promise { ballot, votes, .. } if votes.is_empty() => {
            format!("{f} が {to} に投票 {} を約束します。それらのスロットではまだ賛成していません。", b(*ballot))
        }
        MpMsg::Promise { ballot, votes, .. } => {
            format!("{f} が {to} に投票 {} を約束し、{} 個のスロットでの賛成票を報告します。", b(*ballot), votes.len())
        }
        MpMsg::Accept { ballot, slot, cmd: c } => {
            format!("{f} が {to} に、スロット {} の{}への賛成を求めます（投票 {}、2a）。", slot.0, cmd(c), b(*ballot))
        }
        MpMsg::Accepted { slot, cmd: c, .. } => format!("{f} がスロット {} の{}に賛成し、{to} に伝えます（2b）。", slot.0, cmd(c)),
        MpMsg::Decided { slot, cmd: c } => format!("{f} が {to} に告げます：スロット {} は{}に決まりました（3）。", slot.0, cmd(c)),
        MpMsg::Nack { ballot, promised } => {
            format!("{f} は {to} の投票 {} を拒みます：すでに {} を約束しています。", b(*ballot), b(*promised))
        }
        MpMsg::Heartbeat { round, .. } if many => format!("リーダー {f} がハートビート {round} を {to} に送り、リースを求めます。"),
        MpMsg::Heartbeat { round, .. } => format!("{f} がハートビート {round} を {to} に送ります。"),
        MpMsg::HeartbeatAck { round, .. } => format!("{f} がハートビート {round} を {to} に確認します。"),
        MpMsg::CatchUp { from } => format!("{f} は遅れていて、スロット {} 以降を {to} に求めます。", from.0),
        MpMsg::Entries { entries } => format!("{f} が {to} に決まったスロットを {} 個送ります。", entries.len()),
        MpMsg::KeepAlive { .. } => format!("{f} がセッションのキープアライブを {to} に送ります。"),
        MpMsg::KeepAliveReply { epoch, lease_us } => {
            format!("エポック {} のマスター {f} が、{to} のセッションリースを {} 延ばします。", b(*epoch), s.duration(*lease_us))
        }
        MpMsg::SessionGone => format!("{f} が {to} に伝えます：あなたのセッションは終わり、ロックも解放されました。"),
        MpMsg::Write { lock, generation, value } => {
            format!("{f} がロック {lock} のシーケンサ（世代 {generation}）を付けて {value} を {to} に書き込みます。")
        }
        MpMsg::WriteReply { generation, verdict: v, .. } => format!("{f} が {to} の書き込み（世代 {generation}）に答えます：{}。", verdict(*v)),
    }
}

pub fn note(s: &Ja, names: &[String], who: &str, n: &MpNote) -> String {
    let b = |x| s.ballot(names, x);
    let nm = |id: NodeId| name(names, id).to_string();
    match n {
        MpNote::Asked { cmd: c } => format!("{who} が命令を送ります：{}。", cmd(c)),
        MpNote::Answered { outcome: o, .. } => format!("{who} に答えが届きました：{}。", outcome(names, o)),
        MpNote::BallotStarted { ballot, .. } => format!("{who} が投票 {} を始めます。", b(*ballot)),
        MpNote::Elected { ballot, forced, noops } => format!(
            "{who} は投票 {} について過半数の約束を得て、リーダーになります。新しい命令の前に、{forced} 個のスロットを再提案し（B3）、{noops} 個の空きを no-op で埋めます。",
            b(*ballot)
        ),
        MpNote::SlotPicked { slot, cmd: c, pick: Pick::Forced { by }, .. } => format!(
            "スロット {}：投票 {} での{}への賛成が最も大きい番号として報告されたので、{who} はそれを提案しなければなりません（B3）。",
            slot.0,
            b(*by),
            cmd(c)
        ),
        MpNote::SlotPicked { slot, pick: Pick::Noop, .. } => {
            format!("スロット {}：誰も賛成票を報告していない空きです。{who} は no-op で埋めます。", slot.0)
        }
        MpNote::SlotPicked { slot, cmd: c, .. } => format!("{who} がスロット {} に{}を置きます。", slot.0, cmd(c)),
        MpNote::SteppedDown { ballot, by } => {
            format!("{who} は自分の {} より大きい投票 {} を知り、退きます。", b(*ballot), b(*by))
        }
        MpNote::LeaseRefused { candidate, grantee } => format!(
            "{who} は{}を拒みます：リースが切れるまで別のマスターに従わないと {} に約束しているからです。",
            if nm(*candidate) == who { "受理者として自分の立候補".into() } else { format!(" {} ", nm(*candidate)) },
            if *grantee == NodeId::NET { "再起動前の誰か".into() } else { nm(*grantee) }
        ),
        MpNote::Learned { slot, cmd: c } => format!("{who} がスロット {} をログに書きます：{}。", slot.0, cmd(c)),
        MpNote::Applied { slot, cmd: c, .. } => format!("{who} がスロット {} を適用します：{}。", slot.0, cmd(c)),
        MpNote::CaughtUp { from, to } => format!("{who} が追いつきました：スロット {} から {} を埋めました。", from.0, to.0.saturating_sub(1)),
        MpNote::LeaseHeld { .. } => format!("{who} はマスターリースを持っていると信じています。"),
        MpNote::LeaseLost { why } => format!("{who} はもうマスターリースを持っているとは信じていません（{}）。", lease_end(*why)),
        MpNote::ReadServed { key: k, value, version, .. } => format!(
            "{who} が {} の読み出しに自分の写しから答えます：{}（スロット {} で書かれた値）。",
            key(*k),
            value.map(|v| v.to_string()).unwrap_or_else(|| "値なし".into()),
            version.0
        ),
        MpNote::Chosen { slot, cmd: c, members, .. } => format!(
            "過半数（{}）がスロット {} の{}に賛成しました。これで選ばれました。",
            join_names(names, members.iter(), "・"),
            slot.0,
            cmd(c)
        ),
        MpNote::MasterLeaseHeld { holder, until_us, .. } => format!(
            "{} が {} までマスターリースを持ちます（自分の時計で、ずれの分を短くして）。過半数が確認したハートビートのたびに、その終わりが延びます。",
            nm(*holder),
            s.duration(*until_us)
        ),
        MpNote::MasterLeaseReleased { holder, why } => format!("{} のマスターリースが終わります：{}。", nm(*holder), lease_end(*why)),
        MpNote::SessionTimedOut { client } => format!(
            "{who} はセッションリース一つ分、{} からキープアライブを受け取っていません。ログを通してセッションを終え、そのロックを解放します。",
            nm(*client)
        ),
        MpNote::Jeopardy => format!("{who} 自身のセッションリースの見積もりが切れました。セッションは危険状態（jeopardy）に入り、猶予期間が始まります。"),
        MpNote::SessionSafe { epoch, failover: true } => {
            format!("新しいマスター（エポック {}）が猶予期間内に {who} に答えました。セッションは安全で、ロックも保たれます。", b(*epoch))
        }
        MpNote::SessionSafe { .. } => format!("マスターが間に合って {who} に答えました。セッションは再び安全です。"),
        MpNote::SessionLost { why } => format!("{who} のセッションが失われました（{}）。もうどのロックも持っていません。", session_end(*why)),
        MpNote::NotHolding { lock } => format!("{who} はロック {lock} の下で書こうとしますが、もう持っていないと知っているので書きません。"),
        MpNote::WriteChecked { client, generation, verdict: v, .. } => {
            format!("{who} が {} の書き込み（世代 {generation}）を確かめます：{}。", nm(*client), verdict(*v))
        }
    }
}

fn session_end(w: SessionEnd) -> &'static str {
    match w {
        SessionEnd::Grace => "猶予期間が切れた",
        SessionEnd::Ended => "セルが終わらせた",
    }
}

fn lease_end(w: LeaseEnd) -> &'static str {
    match w {
        LeaseEnd::Expired => "期限切れ",
        LeaseEnd::SteppedDown => "退いた",
        LeaseEnd::Crashed => "クラッシュした",
    }
}

/// A short mark on a diagram.
pub fn mark(names: &[String], n: &MpNote) -> Option<String> {
    let nm = |id: NodeId| name(names, id).to_string();
    Some(match n {
        MpNote::Chosen { slot, cmd: c, .. } => {
            format!("スロット {} に{}が選ばれる", slot.0, cmd(c))
        }
        MpNote::Elected { forced, noops, .. } => {
            format!("リーダーに（再提案 {forced}、no-op {noops}）")
        }
        MpNote::SteppedDown { .. } => "退く".into(),
        MpNote::CaughtUp { from, to } => format!("追いつき {}–{}", from.0, to.0.saturating_sub(1)),
        MpNote::MasterLeaseHeld { holder, .. } => format!("{} がマスターリース", nm(*holder)),
        MpNote::MasterLeaseReleased { holder, why } => {
            format!("{} のリース終了（{}）", nm(*holder), lease_end(*why))
        }
        MpNote::ReadServed { key: k, value, .. } => {
            format!(
                "{} を読む = {}",
                key(*k),
                value
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| "値なし".into())
            )
        }
        MpNote::LeaseRefused { candidate, .. } => format!("{} を拒否（リース中）", nm(*candidate)),
        MpNote::SessionTimedOut { client } => format!("{} のセッションを終える", nm(*client)),
        MpNote::Jeopardy => "セッション危険".into(),
        MpNote::SessionSafe { .. } => "セッション安全".into(),
        MpNote::SessionLost { .. } => "セッション喪失".into(),
        MpNote::WriteChecked {
            generation,
            verdict: Verdict::Accepted,
            ..
        } => format!("世代 {generation} の書き込みを受理"),
        MpNote::WriteChecked { generation, .. } => format!("世代 {generation} の書き込みを拒否"),
        _ => return None,
    })
}

pub fn command(names: &[String], c: &MpCommand) -> String {
    match c {
        MpCommand::Put { node, key, value } => format!(
            "{} に {key} = {value} の書き込みを頼みます。",
            name(names, *node)
        ),
        MpCommand::Get { node, key } => {
            format!("{} に {key} の読み出しを頼みます。", name(names, *node))
        }
    }
}

pub fn mutation_title(m: MpMutation) -> &'static str {
    match m {
        MpMutation::NoLeaseWait => "リースを待たない：新マスターがすぐに読み出しに答える",
        MpMutation::LeaseNoDriftMargin => "時計のずれの余裕なしのリース",
        MpMutation::SkipPhase1OnTakeover => "引き継ぎでフェーズ 1 を省く",
        MpMutation::NoOpFreeGaps => "空きを新しく埋め、票を回復しない",
    }
}
