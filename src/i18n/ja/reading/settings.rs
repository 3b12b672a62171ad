//! Why a setting is refused, in Japanese. The checks (`Scenario::validate`,
//! the protocols' builders, `Latency::validate`) say it in English with the
//! file's numbers and names in it ("7 acceptors; Paxos Commit needs 2F+1 of
//! them: 1, 3, 5 or 7"); each sentence here is matched with its English
//! pattern, `{}` standing for what the file said, and said again with those
//! values in their Japanese places (`{0}`, `{1}` …). A test reaches every
//! pattern from a damaged scenario, so an English sentence changed without
//! its line here fails it.

/// (English pattern, Japanese sentence).
pub(super) const REASONS: [(&str, &str); 66] = [
    // The network's delays and odds.
    ("the maximum latency is below the minimum", "最大の遅延が最小の遅延より小さくなっています"),
    ("σ must be a number above 0 and at most 5", "σ は 0 より大きく 5 以下の数でなければなりません"),
    ("the mean must be above 0", "平均は 0 より大きくなければなりません"),
    ("a probability must be between 0 and 1", "確率は 0 から 1 まででなければなりません"),
    ("the tail exponent must be above 0", "裾の指数は 0 より大きくなければなりません"),
    ("the cap is below the median", "上限が中央値より小さくなっています"),
    ("{} is not a probability between 0 and 1", "{0} は 0 から 1 までの確率ではありません"),
    // The whole run, clocks and faults.
    ("{} µs is outside 1 µs … 1 hour", "{0} µs は 1 µs から 1 時間までの範囲の外です"),
    ("{} ppm is beyond ±{} ppm", "{0} ppm は ±{1} ppm を超えています"),
    ("a pause must last longer than 0 µs", "一時停止の長さは 0 µs より長くなければなりません"),
    ("every group needs at least one node", "どのグループにも少なくとも 1 つのノードが要ります"),
    (
        "deliver and fire are steps of a scripted network (set network.scripted to true)",
        "「deliver」と「fire」は手で進めるネットワークの手順です。「network.scripted」を true にしてください",
    ),
    ("{} is a {} command, and this is a {} scenario", "「{0}」は「{1}」のコマンドですが、このシナリオは「{2}」です"),
    // Decrees.
    ("a decree cannot be empty", "法令を空にはできません"),
    (
        "a decree may have at most {} bytes (about 8 Japanese or 24 Latin characters); this one has {}",
        "法令は {0} バイト（日本語なら約 8 文字）までです。これは {1} バイトあります",
    ),
    ("a decree cannot contain control characters", "法令に制御文字は使えません"),
    // A Multi-Paxos client's writes.
    ("a value to write cannot be empty", "書き込む値を空にはできません"),
    (
        "a value to write may have at most {} bytes (about 8 Japanese or 24 Latin characters); this one has {}",
        "書き込む値は {0} バイト（日本語なら約 8 文字）までです。これは {1} バイトあります",
    ),
    ("a value to write cannot contain control characters", "書き込む値に制御文字は使えません"),
    // The Synod.
    ("{} is not a Paxos role (proposer, acceptor, learner)", "「{0}」は Paxos の役割ではありません（使えるのは proposer, acceptor, learner）"),
    (
        "{} acceptors; use 1 to 9 (3, 5, 7 or 9 tolerate 1 to 4 crashes)",
        "受容者が {0} 人います。1 から 9 人にしてください（3、5、7、9 人ならそれぞれ 1 から 4 人の故障に耐えます）",
    ),
    ("the phase timeout must be between 1 µs and 10 minutes", "フェーズのタイムアウトは 1 µs から 10 分まででなければなりません"),
    ("{} has no proposer role", "「{0}」には「proposer」の役割がありません"),
    ("{} already has a proposal; one per proposer", "「{0}」にはもう提案があります（提案者ひとりに 1 つです）"),
    // Transaction commit.
    ("{} is not a commit role (tm, rm, acceptor, coordinator)", "「{0}」はコミットの役割ではありません（使えるのは tm, rm, acceptor, coordinator）"),
    ("a commit scenario needs exactly one tm; found {}", "コミットのシナリオには「tm」がちょうど 1 個要ります（いまは {0} 個）"),
    ("{} resource managers; use 1 to {}", "リソースマネージャが {0} 個あります。1 から {1} 個にしてください"),
    (
        "two-phase commit has no acceptors, backup coordinators or faster variant; those are Paxos Commit's",
        "2 相コミットには受容者も予備のコーディネータも速い版もありません（どれも Paxos Commit のものです）",
    ),
    ("{} acceptors; Paxos Commit needs 2F+1 of them: 1, 3, 5 or 7", "受容者が {0} 人います。Paxos Commit には 2F+1 人（1、3、5、7 人）が要ります"),
    ("the timeout must be between 1 µs and 10 minutes", "タイムアウトは 1 µs から 10 分まででなければなりません"),
    ("{} is not a resource manager", "「{0}」はリソースマネージャではありません"),
    // The lease lab.
    (
        "the TTL must be above 0: a lease that expires at once protects nothing",
        "TTL は 0 より大きくなければなりません。すぐに切れるリースは何も守りません",
    ),
    ("the TTL may be at most 10 minutes here", "ここでは TTL は 10 分までです"),
    ("the renew interval must be above 0", "更新の間隔は 0 より大きくなければなりません"),
    (
        "renewing every {} with a TTL of {} lets the lease lapse between renewals; renew more often than the TTL",
        "TTL が {1} なのに {0} ごとの更新では、更新と更新のあいだにリースが切れます。TTL より短い間隔で更新してください",
    ),
    ("a clock-rate error of 50 % or more leaves no budget", "時計の速さの誤差が 50 % 以上では、使える時間が残りません"),
    ("the margin {} leaves the worker no time to hold the lease", "余裕 {0} を引くと、ワーカーがリースを持てる時間が残りません"),
    ("{} workers; this lab supports 1 to {}", "ワーカーが {0} 人います。この実験室では 1 から {1} 人までです"),
    ("{} rows; use 1 to 16", "行の数が {0} です。1 から 16 にしてください"),
    ("a holder must take orders at some interval above 0", "保持者が注文を受ける間隔は 0 より大きくなければなりません"),
    ("the LLM time-out must be above 0", "LLM のタイムアウトは 0 より大きくなければなりません"),
    ("this design uses an LLM, but the scenario has no llm node", "この設計は LLM を使いますが、シナリオに「llm」のノードがありません"),
    ("a stall must last longer than 0", "停止の長さは 0 より長くなければなりません"),
    ("retry-after must be above 0", "「retry-after」は 0 より大きくなければなりません"),
    ("a lease scenario needs exactly one storage node; found {}", "リースのシナリオには「storage」のノードがちょうど 1 個要ります（いまは {0} 個）"),
    (
        "{} lease_store nodes; a lease scenario needs one store, or 2 to {} replicas of one",
        "「lease_store」のノードが {0} 個あります。リースのシナリオには、ストアが 1 個か、その複製が 2 から {1} 個要ります",
    ),
    (
        "these are a replicated store's settings, but the scenario has one lease_store node; add replicas or drop the section",
        "これは複製されたストアの設定ですが、シナリオの「lease_store」のノードは 1 個です。複製を足すか、この節を外してください",
    ),
    ("at most one llm node", "「llm」のノードは 1 個までです"),
    ("at most one advisor node", "「advisor」のノードは 1 個までです"),
    (
        "each lease-lab node plays exactly one of: worker, lease_store, storage, llm, advisor",
        "リース実験室のノードは役割をちょうど 1 つ持ちます（使えるのは worker, lease_store, storage, llm, advisor）",
    ),
    ("{} is outside 1 ms … 60 s", "{0} は 1 ms から 60 s までの範囲の外です"),
    ("{} must be above the heartbeat ({}) and at most 60 s", "{0} はハートビート（{1}）より長く、60 s 以下でなければなりません"),
    (
        "{} must be above the heartbeat ({}): the master renews its lease every heartbeat",
        "{0} はハートビート（{1}）より長くなければなりません。マスターはハートビートごとにリースを更新します",
    ),
    // Multi-Paxos and Chubby.
    ("{} is not a lock; use 0 to 3", "{0} というロックはありません。0 から 3 にしてください"),
    ("{} needs a lock (0 to 3)", "{0} にはロック（0 から 3）が要ります"),
    (
        "{} needs a Chubby cell: add \"cell\": {} to the multipaxos section",
        "{0} には Chubby のセルが要ります。「multipaxos」の節に \"cell\": {1} を足してください",
    ),
    ("{} is not a key; use x, y, z or w", "{0} というキーはありません（使えるのは x, y, z, w）"),
    (
        "{} is not an operation; use put, get, open, acquire, release or write",
        "{0} という操作はありません（使えるのは put, get, open, acquire, release, write）",
    ),
    (
        "each Multi-Paxos node plays exactly one of: replica, client, storage (a Chubby cell's file server)",
        "Multi-Paxos のノードは役割をちょうど 1 つ持ちます（使えるのは replica, client, storage）。「storage」は Chubby のセルのファイルサーバです",
    ),
    (
        "at most one storage node (a file server), and only in a Chubby cell",
        "「storage」のノード（ファイルサーバ）は 1 個まで、それも Chubby のセルでだけ使えます",
    ),
    ("{} replicas; use 1 to {}", "レプリカが {0} 個あります。1 から {1} 個にしてください"),
    ("at most {} clients", "クライアントは {0} 個までです"),
    ("{} µs is outside {} µs … {} µs", "{0} µs は {1} µs から {2} µs までの範囲の外です"),
    ("the window holds 1 to 64 slots", "ウィンドウに入るのは 1 から 64 スロットです"),
    ("the drift bound must be below 500,000 ppm", "ずれの上限は 500,000 ppm 未満でなければなりません"),
    ("{} is not a client", "「{0}」はクライアントではありません"),
];

/// `reason` in Japanese, if it is one of [`REASONS`].
pub(super) fn reason(reason: &str) -> Option<String> {
    REASONS.iter().find_map(|(en, ja)| fill(en, ja, reason))
}

/// `ja` with the values `said` has where `en` has `{}`; `None` when `said`
/// is not `en`'s sentence.
pub(super) fn fill(en: &str, ja: &str, said: &str) -> Option<String> {
    let mut pieces = en.split("{}");
    let mut rest = said.strip_prefix(pieces.next()?)?;
    let mut values = Vec::new();
    let mut pieces = pieces.peekable();
    while let Some(piece) = pieces.next() {
        let value = if pieces.peek().is_none() {
            let v = rest.strip_suffix(piece)?;
            rest = "";
            v
        } else {
            let (v, r) = rest.split_once(piece)?;
            rest = r;
            v
        };
        // A duration of minutes reads "2 min 05 s" (`human_us`).
        values.push(value.replace(" min ", " 分 "));
    }
    if !rest.is_empty() {
        return None;
    }
    let mut out = ja.to_string();
    for (i, v) in values.iter().enumerate() {
        out = out.replace(&format!("{{{i}}}"), v);
    }
    Some(out)
}

#[cfg(test)]
mod tests;
