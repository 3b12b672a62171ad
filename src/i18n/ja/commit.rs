//! 2 相コミットと Paxos Commit の語り（日本語）。

use crate::protocol::commit::{
    Ballot, CommitMsg, CommitNote, CommitTimer, Outcome, RmSet, RmVote, Votes,
};
use crate::sim::NodeId;

fn name(names: &[String], n: NodeId) -> String {
    names.get(n.index()).cloned().unwrap_or_else(|| "?".into())
}

pub fn ballot(names: &[String], b: Ballot) -> String {
    if b.is_zero() {
        "0".into()
    } else {
        format!("({},{})", b.round, name(names, b.node))
    }
}

fn vote(v: RmVote) -> &'static str {
    match v {
        RmVote::Prepared => "準備完了（prepared）",
        RmVote::Aborted => "中止（aborted）",
    }
}

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Commit => "コミット",
        Outcome::Abort => "アボート",
    }
}

fn votes(names: &[String], v: Votes) -> String {
    let all: Vec<String> = v
        .iter()
        .map(|(r, x)| format!("{} は{}", name(names, r), vote(x)))
        .collect();
    all.join("、")
}

fn rms(names: &[String], s: RmSet) -> String {
    s.iter()
        .map(|r| name(names, r))
        .collect::<Vec<_>>()
        .join("・")
}

/// メッセージの種類を短く。
pub fn kind(m: &CommitMsg) -> String {
    match m {
        CommitMsg::Prepare { .. } => "Prepare（準備要求）".into(),
        CommitMsg::Vote { vote: v, .. } => format!("投票（{}）", vote(*v)),
        CommitMsg::Decision { outcome: o, .. } => format!("{}の通知", outcome(*o)),
        CommitMsg::BeginCommit { .. } => "BeginCommit".into(),
        CommitMsg::Phase1a { .. } => "フェーズ 1a".into(),
        CommitMsg::Phase1b { .. } => "フェーズ 1b".into(),
        CommitMsg::Phase2a { .. } => "フェーズ 2a".into(),
        CommitMsg::Phase2b { .. } => "フェーズ 2b".into(),
    }
}

pub fn message(names: &[String], from: NodeId, to: String, m: &CommitMsg, many: bool) -> String {
    let f = name(names, from);
    match *m {
        CommitMsg::Prepare { .. } if many => format!("{f} が {to} に準備を求めます（Prepare）。"),
        CommitMsg::Prepare { .. } => format!("{f} が {to} にコミットの準備を求めます（Prepare）。"),
        CommitMsg::Vote {
            vote: RmVote::Prepared,
            ..
        } => format!("{f} が {to} に「準備完了」（Prepared）と伝えます。"),
        CommitMsg::Vote {
            vote: RmVote::Aborted,
            ..
        } => format!("{f} が {to} に「中止」（Aborted）と伝えます。反対票です。"),
        CommitMsg::Decision { outcome: o, .. } => {
            format!("{f} が {to} に{}を伝えます。", outcome(o))
        }
        CommitMsg::BeginCommit { .. } => {
            format!("{f} がリーダー {to} にトランザクションのコミットを求めます（BeginCommit）。")
        }
        CommitMsg::Phase1a { ballot: b, rms: s } => {
            format!(
                "{f} が {} のインスタンスで投票 {} を始め、{to} にフェーズ 1a を送ります。",
                rms(names, s),
                ballot(names, b)
            )
        }
        CommitMsg::Phase1b {
            ballot: b,
            rms: s,
            last,
        } => {
            let reports: Vec<String> = s
                .iter()
                .map(|r| match last.get(s, r) {
                    Some(x) => format!(
                        "{} は投票 {} で{}",
                        name(names, r),
                        ballot(names, x.ballot),
                        vote(x.vote)
                    ),
                    None => format!("{} は賛成票なし", name(names, r)),
                })
                .collect();
            format!(
                "{f} が {to} に投票 {} を約束し、報告します：{}。",
                ballot(names, b),
                reports.join("／")
            )
        }
        CommitMsg::Phase2a {
            ballot: b,
            votes: v,
        } if b.is_zero() => {
            let own = v.iter().next().map(|(_, x)| vote(x)).unwrap_or("");
            format!("{f} が自分の票「{own}」を {to} に送ります。自分のインスタンスの投票 0（フェーズ 2a）で、投票 0 は自分のものです。")
        }
        CommitMsg::Phase2a {
            ballot: b,
            votes: v,
        } => format!(
            "{f} が {to} に投票 {} での賛成を求めます：{}（2a）。",
            ballot(names, b),
            votes(names, v)
        ),
        CommitMsg::Phase2b {
            ballot: b,
            votes: v,
        } => format!(
            "{f} が投票 {} で賛成し（{}）、{to} に伝えます（2b）。",
            ballot(names, b),
            votes(names, v)
        ),
    }
}

pub fn note(names: &[String], who: &str, n: &CommitNote) -> String {
    match *n {
        CommitNote::RmVoted { vote: RmVote::Prepared } => {
            format!("{who} がログに「準備完了」を書きます。ここから結果を知るまで不確定で、ロックを保持したままです。")
        }
        CommitNote::RmVoted { vote: RmVote::Aborted } => format!("{who} がログに「中止」を書きます。コミットはしません。"),
        CommitNote::RmDecided { outcome: Outcome::Commit } => format!("{who} が「コミット済み」を書き、ロックを解放します。"),
        CommitNote::RmDecided { outcome: Outcome::Abort } => format!("{who} が「アボート済み」を書き、ロックを解放します。"),
        CommitNote::TmDecided { outcome: o } => format!("TM の {who} が決定（{}）をログに書きます。", outcome(o)),
        CommitNote::AcceptorVoted { ballot: b, votes: v } => {
            format!("{who} が投票 {} での賛成を安定記憶に書きます：{}。", ballot(names, b), votes(names, v))
        }
        CommitNote::AcceptorPromised { ballot: b, rms: s } => {
            format!("{who} が {} について投票 {} の約束を書きます。", rms(names, s), ballot(names, b))
        }
        CommitNote::CoordinatorBallot { ballot: b, rms: s } => {
            format!("{who} には結果が届きません。投票 {} で {} のインスタンスを引き継ぎます。", ballot(names, b), rms(names, s))
        }
        CommitNote::LeaderDecided { outcome: Outcome::Commit } => format!("{who} はすべてのインスタンスが「準備完了」を選んだと知りました。コミットです。"),
        CommitNote::LeaderDecided { outcome: Outcome::Abort } => format!("{who} は「中止」を選んだインスタンスがあると知りました。アボートです。"),
        CommitNote::InstanceChosen { rm, ballot: b, vote: v } => format!(
            "受容者の過半数が {} のインスタンスで「{}」に賛成しました（投票 {}）。これで選ばれました。",
            name(names, rm),
            vote(v),
            ballot(names, b)
        ),
    }
}

pub fn timer(who: &str, t: CommitTimer) -> String {
    match t {
        CommitTimer::Begin => format!("{who} はコミットの準備ができました。"),
        CommitTimer::UnilateralAbort => format!("{who} がトランザクションを諦めます。"),
        CommitTimer::VoteTimeout => format!("{who} は結果を待ちきれなくなりました。"),
        CommitTimer::Takeover => format!("{who} はリーダーを待ちきれなくなりました。"),
    }
}
