//! 日本語。

pub mod commit;
pub mod lessons;
pub mod multipaxos;
mod reading;
mod violation;

use super::{group, join_names, More, Refused, Speak, Tell, Words};
use crate::check::{Invariant, Mutation};
use crate::float::fixed;
use crate::protocol::commit::{CommitCommand, CommitMutation, CommitNote, Outcome, RmVote};
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
    tagline: "本物の Paxos・リース・フェンシングトークンをブラウザで動かす",
    press_space: "スペースキー（または ▶）で、議会が法令を可決するまでを見てみましょう。",
    tap_play: "下の ▶ をタップして、議会が法令を可決するまでを見てみましょう。",
    play: "再生",
    replay: "最初からもう一度再生",
    pause: "一時停止",
    step_back: "1ステップ戻る",
    step_forward: "1ステップ進む",
    to_start: "最初へ",
    to_end: "最後へ",
    speed: "速度",
    scrubber: "実行中の位置",
    seed: "シード",
    seed_apply: "このシードで実行",
    scenario: "シナリオ",
    mutation: "アルゴリズムを壊す",
    mutation_none: "壊さない（本物のアルゴリズム）",
    view_parliament: "議会",
    view_lease: "リース実験室",
    view_side: "解説",
    view_ballots: "投票",
    view_lessons: "レッスン",
    views: "表示",
    language: "English",
    present: "発表モード",
    exit_present: "発表モードを終了",
    large_type: "大きな文字",
    help: "キーボード操作",
    close: "閉じる",
    retry: "再試行",
    readers_unavailable: "ファイルとリンクを読む部分を取得できませんでした。接続を確かめて、もう一度お試しください。作業はそのままです。",
    trace_hash: "トレースハッシュ：同じシナリオと同じシードなら必ず同じ値になります",
    proposer: "提案者",
    acceptor: "受容者",
    learner: "学習者",
    promised: "約束した投票",
    last_vote: "最後の賛成票",
    learned: "可決された法令",
    nothing_yet: "—",
    not_voted: "なし",
    away: "不在（クラッシュ）",
    away_hint: "不在の議員には何も届きません。一時停止や提案の前に「復帰」させてください。",
    asleep: "居眠り中",
    present_in_chamber: "議場にいる",
    ink: "インクで書いた法令。二度と書き換えない（安定記憶）",
    back_notes: "台帳の裏の覚え書き。線で消して書き直すが、クラッシュしても残る（安定記憶）",
    pencil: "鉛筆（揮発メモ）",
    wants: "通したい法令",
    decided_banner: "法令が可決されました",
    two_decrees_banner: "合意が破れました — 二つの法令が可決",
    no_decision: "まだ法令は可決されていません",
    crash: "クラッシュ",
    restart: "復帰",
    fault_recorded: "シナリオに記録しました。ここから実行が続きます。",
    mc_title: "すべてのスケジュールを検査",
    qr_title: "この場面をスマートフォンで",
    qr_button: "QR コード",
    whole_run: "この先も表示",
    whole_run_hint: "カーソルより先の図も描きます（オフのときは図がカーソルで止まり、デモの結末を先に見せません）",
    file_menu: "ファイル",
    export_trace: "トレースを書き出す（JSON）",
    export_scenario: "シナリオを書き出す（JSON）",
    import_file: "トレースまたはシナリオを読み込む…",
    drop_hint: "トレースやシナリオのファイルをドロップすると開きます",
    copy_link: "共有リンク…",
    export_view_svg: "この画面を SVG で",
    export_view_png: "この画面を PNG で",
    export_shiviz: "ShiViz 用ログ",
    export_mermaid: "Mermaid シーケンス図",
    window_from: "開始（秒）",
    window_to: "終了（秒）",
    window_backwards: "終わりが始まりより前です。「終了」は「開始」より後にしてください。",
    previous_kept: "以前の作業は保存されています。",
    scenario_loaded: "シナリオを読み込みました。",
    recorded_no_faults: "この実行は記録されたイベントだけなので変更できません。書き出すか、シナリオを開いて試してください。",
    fault_after_end: "実行はここで終わります。終わりより後の障害は何も変えません。前の時点に戻ってから加えてください。",
    view_commit: "コミット",
    view_multi: "マルチ Paxos",
};

/// The labels only the parts show (see `i18n::More`).
pub static MORE: More = More {
    share_ballots_title: "この投票表へのリンク",
    share_ballots_hint: "このリンクを開くと、「投票」タブにこの表がいまの形のまま（書き換えも含めて）開きます。",
    restore_previous: "以前の作業に戻す",
    restored: "以前の作業に戻しました。開いたものも残してあります。",
    reopen: "開いたものに戻る",
    narration_title: "いま起きたこと",
    narration_empty: "まだ何も起きていません。スペースキーで開始します。",
    narration_empty_touch: "まだ何も起きていません。▶ をタップして開始します。",
    invariants_title: "不変条件",
    inspector_title: "詳細",
    inspector_hint: "議員をクリックすると台帳が見え、障害を注入できます。",
    spacetime_title: "時空図",
    free: "自由",
    local_clock: "本人の時計",
    pause_for: "一時停止",
    seconds: "秒",
    llm_stall_preset: "LLM 並みの停止（20 秒）",
    propose: "提案させる",
    decree: "法令",
    partition_hint: "議員をグループ A か B に分けます。グループ間は使者が通れません。",
    group_a: "A",
    group_b: "B",
    one_way: "片方向のみ（A から B へ届かない）",
    heal: "分断を解消",
    loss: "消失率",
    latency_ms: "遅延（ミリ秒）",
    apply: "適用",
    inv_ok: "成立",
    inv_broken: "違反",
    inv_jump: "違反した時点へ移動",
    mc_intro: "モデル検査器は、小さな議会について、配達・消失・重複・タイムアウト・クラッシュのあらゆる順序で本物のアルゴリズムを動かし、規則を破る道があれば最短のものを見つけます。",
    mc_acceptors: "受容者",
    mc_proposers: "提案者",
    mc_ballots: "投票の数",
    mc_crashes: "クラッシュ",
    mc_start: "検査する",
    mc_cancel: "中止",
    mc_open: "最短の反例を開く",
    mc_opened: "モデル検査器が見つけた最短の反例です。1 ミリ秒に 1 歩ずつ進む台本どおりの実行で、規則が破れた時点で止めてあります。",
    lease_settings: "設定",
    ttl_s: "TTL（秒）",
    renew_s: "更新間隔（秒）",
    workers: "ワーカー数",
    drift_ppm: "W1 の時計のずれ（ppm）",
    design_in_loop: "ループの中（アンチパターン）",
    design_beside: "ループの外（健全）",
    design_none: "LLM なし",
    llm_preset: "LLM のふるまい",
    preset_fast_api: "高速 API（約 0.3 秒）",
    preset_typical_llm: "典型的な LLM（中央値 1.5 秒、裾が重い）",
    preset_stall: "N 秒の停止",
    preset_timeout: "応答しない（タイムアウト）",
    preset_rate_limit: "レート制限（429）",
    preset_refusal: "回答拒否",
    preset_malformed_json: "壊れた JSON",
    preset_outage: "ベンダー障害",
    preset_flaky: "答えが揺れる（保持・手放せ・壊れた JSON）",
    preset_throttled: "ベンダーのポリシー（429・回答拒否）",
    stall_s: "停止（秒）",
    apply_settings: "設定を適用",
    inject_title: "いま注入する",
    llm_stall_button: "次の LLM 呼び出しが止まる",
    gc_pause_button: "プロセスが一時停止（GC）",
    worker: "ワーカー",
    compare_off: "1 つの実行",
    compare_fencing: "フェンス：記事どおり｜トークンのみ",
    compare_design: "LLM はループの中｜外",
    lane_store: "リースストア",
    crash_store_master: "ストアのマスターをクラッシュ",
    restart_replica: "再起動",
    store_replica_title: "ストアの Paxos グループのレプリカ：青い帯はマスターリース（その間だけワーカーに答えます）、♛ は選出、灰色はクラッシュ",
    lane_orders: "orders（注文）",
    lane_llm: "LLM",
    believes: "本人の認識",
    store_says: "ストアの記録",
    split_brain: "スプリットブレイン",
    stale_attempted: "古いエポックでの書き込み試行",
    stale_rejected: "拒否",
    stale_accepted: "受理",
    damaged_rows: "壊れた行（更新の消失）",
    split_time: "スプリットブレインの時間",
    failover: "フェイルオーバー",
    red_flags_title: "レッドフラッグ（危険信号）",
    flag_depends: "リースのモジュールが LLM と通信している",
    flag_p99: "LLM の p99 遅延が TTL の半分を超える",
    flag_ttl: "LLM を待つために TTL を延ばしている",
    flag_drill: "LLM 停止訓練でループが止まる",
    lease_rule_title: "リースのルールを一文で",
    lease_rule: "期限内の order-processor 行を保持している間だけ注文を書き込み、各書き込みにエポックを付ける。DB は現在のエポックでなければ拒否する。",
    raised: "点灯",
    quiet: "消灯",
    charts_title: "グラフ",
    chart_latency: "LLM 呼び出しの遅延",
    chart_sweep: "モンテカルロ・スイープ",
    chart_validity: "リースの有効期間",
    run_sweep: "スイープを実行",
    download_svg: "SVG をダウンロード",
    calls: "呼び出し",
    seconds_log: "LLM 呼び出しの所要時間（秒、対数目盛）",
    ttl_axis: "TTL（秒）",
    split_per_run: "60 秒あたりのスプリットブレイン時間（秒）",
    stale_per_run: "新しいデータを上書きした古い書き込み（1 回あたり）",
    remaining_s: "リースの残り時間（秒）",
    time_axis: "時刻（秒）",
    fencing_on: "フェンシングあり",
    fence_article: "記事どおり：有効なリース＋行フェンス",
    fence_token: "トークンのみ：単調増加するトークンだけ",
    fence_off: "なし：検査しない",
    fence_etcd: "etcd：リースキーのリビジョンを条件にしたトランザクション",
    bump_on_renew: "更新のたびに新しいエポック",
    dead_writes: "有効でないリースでの書き込み",
    not_live: "リース無効",
    refused_by: "拒否の理由",
    refused_row: "行フェンス",
    refused_other: "別の保持者",
    refused_expired: "期限切れ",
    sql_title: "この時点の SQL",
    sql_intro: "ストアと orders の各ステップは 1 つの SQL 文です。記事はルールを言葉で述べているだけで SQL は載せていません。これらの文は私たちが書き、PostgreSQL 15 で確かめたものです。下の準備をしてから psql に貼り付ければ、自分で実行できます。",
    sql_leases: "リースストア — worker_leases",
    sql_orders: "orders",
    sql_none: "まだ文はありません。",
    sql_setup: "準備：テーブルとシミュレーション時刻",
    sql_result: "結果",
    sql_clock: "データベースの時計での now()",
    sql_etcd: "etcd で記録された実行です。ステップは SQL ではなく、リースの付与、キープアライブ、そしてリースキーのリビジョンで守られたトランザクションです。",
    fencing_off: "フェンシングなし",
    waiting_llm: "LLM 待ち",
    frozen: "停止中",
    settings_refused: "この設定では実行できません",
    faults_in_scenario: "このシナリオの障害",
    remove_fault: "この障害を取り除く",
    no_faults: "ありません。何か起こすまで、何も壊れません。",
    ballots_title: "Synod の投票 — B1・B2・B3",
    ballots_intro: "各行が 1 つの投票です。番号、法令、クォーラム、賛成した司祭。どこでも書き換えられ、条件はその場で確かめられます。",
    ballot_number: "投票",
    voters: "賛成者",
    b3_column: "B3",
    add_ballot: "投票を追加",
    figure1_reset: "Lamport の図 1 に戻す",
    delete_row: "この投票を削除",
    conditions: "条件",
    latency_title: "もし 1 ナノ秒が 1 秒だったら",
    operation: "操作",
    real_time: "実時間",
    scaled_time: "10⁹ 倍すると",
    llm_slider: "LLM 呼び出し",
    lessons_title: "レッスン",
    step_of: "ステップ",
    answer_right: "正解です。",
    answer_wrong: "残念、違います。",
    watch_label: "注目するところ",
    try_label: "自由に操作できます。ここから先は何でも試せます。",
    reveal: "答え合わせ",
    reveal_wait: "実行の続きを見ましょう。答えを決める瞬間に実行が届くと、答えが示されます。",
    done: "完了",
    start_lesson: "始める",
    continue_lesson: "続きから（ステップ {}）",
    link_to_step: "このステップへのリンク",
    commit_compare: "もう一方のプロトコルと並べる（同じ障害）",
    faster_option: "Faster Paxos Commit（2b を RM へ直接）",
    crash_tm: "TM のノードを今すぐ故障させる",
    restart_tm: "TM のノードを再起動",
    rm_working: "作業中",
    rm_uncertain: "不確定：ロック保持中",
    rm_committed: "コミット済み",
    rm_aborted: "アボート済み",
    node_down: "停止中",
    uncertain_for: "不確定の時間",
    placement_separate: "専用ノード",
    placement_colocated: "RM1 と同居",
    costs_title: "コスト：平常時の実行から測った値と Gray & Lamport の式",
    col_protocol: "プロトコル",
    col_placement: "TM の配置",
    col_messages: "メッセージ数",
    col_delays: "メッセージ遅延",
    col_writes: "安定記憶への書き込み",
    measured: "実測",
    paper: "論文",
    run_tally: "この実行のここまで：メッセージ {m} 通・安定記憶への書き込み {w} 回",
    costs_note_delays: "同じノード上の役割どうしのメッセージはネットワークを通らないので数えません。論文は RM のコミット要求もメッセージ遅延 1 回と数えますが、TM が RM1 のノードにいればこの要求はノード内で済むので、実行では 1 回少なくなります（− 1）。",
    costs_note_writes: "書き込み：各 RM の票、TM の決定、各受容者の票（全 RM 分を 1 回で）。このあと各 RM は結果を書きますが、これはどのプロトコルでも同じです。論文の N+1 と N+F+1 は、結果が決まる前の書き込みを数えています。",
    mp_log_title: "複製されたログ",
    mp_log_hint: "行がレプリカ、列がスロットです。台帳の裏の覚え書き：投票（2b）だけ（クラッシュしても残る）。インク：選ばれて書き込まれた。下線：スロットの順にキー・バリュー表へ適用済み。",
    mp_slot: "スロット",
    mp_leads: "リーダー",
    mp_runs: "選挙に立候補中",
    mp_follows: "フォロワー",
    mp_lease_mark: "マスターリースを保持",
    mp_cut_off_mark: "過半数から切り離されている",
    mp_clients: "クライアント：それぞれが信じていること（止まっているあいだは、最後に聞いたことを信じたまま）",
    mp_waits: "待っている命令",
    mp_heard: "最後の応答",
    mp_lease_title: "マスターリース：各レプリカが保持していると信じていた期間（真の時刻）",
    mp_lease_none: "この実行にはマスターリースがありません。自分がリーダーだと信じるレプリカは、リースなしで自分の写しから読み出しに答えます。",
    st_crashed: "クラッシュ中",
    st_duplicate: "（重複）",
    st_in_flight: "…移動中",
    st_thinned: "通の使者はこの窓に描いていません。多すぎて読めないため、均等に間引いて表示しています",
    st_lost: "行方不明",
    st_partitioned: "分断",
    st_receiver_down: "受け手は不在",
    mp_paused: "停止中",
    mp_session_ended: "マスターがセッションを終了",
    mp_verdict_refused: "拒否",
    mp_sessions_title: "Chubby のセッション：各クライアントから見た自分のセッション（真の時刻）と、ファイルサーバの判定",
    mp_session: "セッション",
    mp_session_safe: "安全",
    mp_session_jeopardy: "危険状態（jeopardy）",
    mp_session_lost: "喪失",
    mp_holds: "保持",
    mp_lock: "ロック",
    mp_generation: "世代",
    mp_file_server: "ファイルサーバ",
    mp_file: "ファイル",
    mp_file_empty: "まだ何も書かれていない",
    mp_last_check: "最後の確認",
    mp_verdict_accepted: "受理",
    mp_verdict_stale: "拒否：すでに見た世代より古い",
    mp_verdict_not_current: "拒否：セルによればもう有効ではない",
    mp_legend_vote: "投票（台帳の裏の覚え書き：クラッシュしても残る）",
    mp_legend_ink: "選ばれた（インク）",
    mp_legend_applied: "適用済み",
    mp_legend_noop: "no-op（穴埋め）",
    crash_leader: "リーダーを今すぐ停止させる",
    restart_replicas: "停止したレプリカを再起動",
    cut_leader_off: "リーダーを切り離す",
    cut_leader_off_hint: "分断：片側にリーダー、反対側にほかのレプリカ。クライアントはどちら側にも届きます。",
    heal_network: "ネットワークを修復",
    mp_cut_nothing: "いまは修復する分断がありません。",
    mc_needs_crash: "この壊し方は、議員がクラッシュして再起動したときにだけ働きます。「クラッシュ」が 1 以上のときにだけ現れます。",
    mp_write: "書き込みを送る",
    mp_write_key: "キー",
    mp_write_value: "値",
    mp_no_leader: "いまはだれもリーダーではありません。",
    compare: "並べて比較",
    design: "LLM の置き場所",
    fencing: "フェンス（orders が確認すること）",
    faults: "障害",
    count: "回数",
    partition: "ネットワーク分断",
    st_one_way: "（一方向）",
    duplicate: "重複率",
    quorum: "クォーラム",
    next: "次へ",
    back: "戻る",
    copied: "コピーしました。",
    copy_failed: "コピーできませんでした。リンクを選択して Ctrl+C を押してください。",
    share_title: "このシナリオへのリンク",
    share_hint: "このリンクを開くと、同じシードと同じ障害で実行がそのまま再現され、いま画面にある瞬間が表示されます。",
    share_step_hint: "このリンクを開くと、このレッスンのこのステップが、開いた人の言語で開きます。",
    copy: "コピー",
    key_space: "Space",
    key_arrows: "← →　, .",
    key_shift_arrows: "Shift ＋ ← →",
    key_plus_minus: "+ −",
    key_home_end: "Home End",
    key_present: "P キー",
    key_qr: "Q キー",
    qr_key_when: "発表モード中",
    key_page: "PageUp／PageDown（レッスン中は ← → も）",
    key_help: "?",
    jump_back: "前の節目へ",
    jump_forward: "次の節目へ",
    slower: "遅く",
    faster: "速く",
};

pub struct Ja;

/// A narration line with one space between Japanese and a name or number
/// ("Α が", "投票 (1,Α) の"), and none between two Japanese words: the
/// sentences are put together from names and phrases ("{f} が {to}に",
/// `to` either "Α・Β" or "全員"), which gave "Α・Βに" and "が 全員".
fn spaced(line: &str) -> String {
    let ja = |c: char| c > '\u{2e80}' && !"。、）」』：・（「『…！？".contains(c);
    let latin = |c: char| c.is_alphanumeric() && c < '\u{2e80}';
    let cs: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 8);
    for (i, &c) in cs.iter().enumerate() {
        let before = i.checked_sub(1).map(|k| cs[k]);
        let after = cs.get(i + 1).copied();
        // No space between Japanese words, nor at a Japanese bracket's
        // inner side ("accept（2a） は" → "accept（2a）は").
        if c == ' '
            && before.is_some_and(|b| ja(b) || "）」』".contains(b))
            && after.is_some_and(|a| ja(a) || "（「『".contains(a))
        {
            continue;
        }
        if before.is_some_and(|b| (latin(b) && ja(c)) || (ja(b) && latin(c))) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

fn name(names: &[String], n: NodeId) -> &str {
    names
        .get(n.index())
        .map(String::as_str)
        .unwrap_or("ネットワーク")
}

fn msg_kind(m: &Msg) -> String {
    match m {
        Msg::Paxos(p) => match p {
            PaxosMsg::Prepare { .. } => "prepare（1a）".into(),
            PaxosMsg::Promise { .. } => "promise（1b）".into(),
            PaxosMsg::Accept { .. } => "accept（2a）".into(),
            PaxosMsg::Accepted { .. } => "accepted（2b）".into(),
            PaxosMsg::Decided { .. } => "可決通知（3）".into(),
        },
        Msg::Commit(c) => commit::kind(c),
        Msg::Lease(l) => match l {
            LeaseMsg::Acquire { .. } => "リース要求".into(),
            LeaseMsg::AcquireReply { .. } => "リース応答".into(),
            LeaseMsg::Release { .. } => "リース返却".into(),
            LeaseMsg::Row { .. } => "リース行".into(),
            LeaseMsg::Write { .. } => "書き込み".into(),
            LeaseMsg::WriteReply { .. } => "書き込み応答".into(),
            LeaseMsg::Ask { .. } => "LLM への質問".into(),
            LeaseMsg::Answer { .. } => "LLM の回答".into(),
        },
        Msg::Multipaxos(m) => multipaxos::msg_kind(m),
    }
}

fn outcome(o: LlmOutcome) -> &'static str {
    match o {
        LlmOutcome::Keep => "「リースを保持せよ」",
        LlmOutcome::Release => "「手放せ」",
        LlmOutcome::Explained => "説明文",
        LlmOutcome::Malformed => "壊れた JSON（解析に失敗）",
        LlmOutcome::Refusal => "回答拒否",
        LlmOutcome::RateLimited { .. } => "429 レート制限",
        LlmOutcome::Unavailable => "503 サービス停止",
        LlmOutcome::Timeout => "応答なし（タイムアウト）",
    }
}

impl Ja {
    fn message(&self, names: &[String], from: NodeId, to: String, msg: &Msg, many: bool) -> String {
        let f = name(names, from);
        match msg {
            Msg::Paxos(p) => {
                let b = self.ballot(names, p.ballot());
                match *p {
                    PaxosMsg::Prepare { .. } if many => format!("{f} が投票 {b} を始め、{to}に prepare（1a）を送ります。"),
                    PaxosMsg::Prepare { .. } => format!("{f} が {to} に投票 {b} の prepare（1a）を送ります。"),
                    PaxosMsg::Promise { last_vote: Some(v), .. } => format!(
                        "{f} が {to} に投票 {b} を約束します。最後の賛成票は投票 {} の法令 {} です。",
                        self.ballot(names, v.ballot),
                        v.value
                    ),
                    PaxosMsg::Promise { last_vote: None, .. } => format!("{f} が {to} に投票 {b} を約束します。まだ一度も賛成していません。"),
                    PaxosMsg::Accept { value, .. } => format!("{f} が {to}に、投票 {b} で法令 {value} への賛成を求めます（2a）。"),
                    PaxosMsg::Accepted { value, .. } => format!("{f} が投票 {b} で {value} に賛成し、{to} に伝えます（2b）。"),
                    PaxosMsg::Decided { value, .. } => format!("{f} が {to}に、法令 {value} の可決を告げます（3）。"),
                }
            }
            Msg::Commit(c) => commit::message(names, from, to, c, many),
            Msg::Lease(l) => match *l {
                LeaseMsg::Acquire { .. } => {
                    format!("{f} が {to} にリースを要求します（1 回の compare-and-set）。")
                }
                LeaseMsg::AcquireReply { epoch: Some(e), .. } => {
                    format!("{f} が {to} に「エポック {e}」と答えます。")
                }
                LeaseMsg::AcquireReply { epoch: None, .. } => {
                    format!("{f} が {to} に「取得不可（行なし）」と答えます。")
                }
                LeaseMsg::Release { epoch } => {
                    format!("{f} がリース（エポック {epoch}）を返します。")
                }
                LeaseMsg::Row { row, .. } => format!(
                    "{f} が {to} にリース行を伝えます：エポック {}、{} まで。",
                    row.epoch,
                    self.duration(row.expires_at.0)
                ),
                LeaseMsg::Write { key, epoch, .. } => format!(
                    "{f} がエポック {epoch} で {} に書き込みます。",
                    key_name(key)
                ),
                LeaseMsg::WriteReply { ok: true, .. } => {
                    format!("{f} が {to} の書き込みを確認します。")
                }
                LeaseMsg::WriteReply { ok: false, .. } => {
                    format!("{f} が {to} に書き込みの拒否を伝えます。")
                }
                LeaseMsg::Ask {
                    purpose: Purpose::KeepLease,
                    ..
                } => format!("{f} が LLM に「リースを保持すべきか」と尋ねます。"),
                LeaseMsg::Ask {
                    purpose: Purpose::Explain,
                    ..
                } => format!("{f} が LLM に、何が起きたかの説明を頼みます。"),
                LeaseMsg::Answer { outcome: o, .. } => {
                    format!("LLM が {to} に答えます：{}。", outcome(o))
                }
            },
            Msg::Multipaxos(m) => multipaxos::message(self, names, f, &to, m, many),
        }
    }
}

/// The JSON reader's complaint (`crate::json`, in serde_json's English) in
/// Japanese, with its place; one this table does not know stays in English
/// (a test reads every complaint the reader makes).
fn json_error(e: &crate::json::Error) -> String {
    // A table, not a `match`: one loop instead of a comparison per line.
    const SAID: [(&str, &str); 16] = [
        (
            "EOF while parsing a value",
            "値の途中でファイルが終わっています",
        ),
        (
            "EOF while parsing a string",
            "文字列の途中でファイルが終わっています",
        ),
        ("expected value", "ここには値が来るはずです"),
        ("expected `,` or `]`", "ここには「,」か「]」が来るはずです"),
        ("expected `,` or `}`", "ここには「,」か「}」が来るはずです"),
        ("expected `:`", "ここには「:」が来るはずです"),
        ("key must be a string", "キーは文字列でなければなりません"),
        ("invalid escape", "エスケープの書き方が正しくありません"),
        ("invalid number", "数の書き方が正しくありません"),
        ("number out of range", "数が大きすぎます"),
        ("recursion limit exceeded", "入れ子が深すぎます"),
        ("trailing characters", "値のあとに余分な文字があります"),
        ("invalid UTF-8", "UTF-8 として読めないバイトがあります"),
        (
            "control character (\\u0000-\\u001F) found while parsing a string",
            "文字列の中に制御文字があります",
        ),
        (
            "lone leading surrogate in hex escape",
            "\\u エスケープのサロゲートが対になっていません",
        ),
        (
            "lone trailing surrogate in hex escape",
            "\\u エスケープのサロゲートが対になっていません",
        ),
    ];
    let m = e.message.as_str();
    let what = match SAID.iter().find(|(en, _)| *en == m) {
        Some((_, ja)) => ja.to_string(),
        None => match m
            .strip_prefix("the key ")
            .and_then(|k| k.strip_suffix(" appears twice"))
        {
            Some(key) => format!("キー {key} が二度現れます"),
            None => m.to_string(),
        },
    };
    if e.line == 0 {
        what
    } else {
        format!("{} 行 {} 列：{what}", e.line, e.column)
    }
}

impl Speak for Ja {
    fn duration(&self, us: u64) -> String {
        if us < 1_000 {
            format!("{us} マイクロ秒")
        } else if us < 1_000_000 {
            format!("{} ミリ秒", fixed(us as f64 / 1e3, 1))
        } else if us < 120_000_000 {
            format!("{} 秒", fixed(us as f64 / 1e6, 3))
        } else {
            let s = us / 1_000_000;
            format!("{} 分 {:02} 秒", s / 60, s % 60)
        }
    }

    fn pencil(&self, names: &[String], p: &Pencil) -> String {
        match p {
            Pencil::Idle => "待機中".into(),
            Pencil::Collecting {
                ballot,
                promises,
                need,
            } => {
                format!("{}：約束 {promises}/{need}", self.ballot(names, *ballot))
            }
            Pencil::Voting {
                ballot,
                value,
                votes,
                need,
                choice,
            } => format!(
                "{} {value}（{}）賛成 {votes}/{need}",
                self.ballot(names, *ballot),
                match choice {
                    Choice::Free => "自由",
                    Choice::Forced { .. } => "強制",
                    Choice::Ignored { .. } | Choice::NotHighest { .. } => "B3 破り",
                }
            ),
            Pencil::Passed { value } => format!("{value} 可決"),
        }
    }

    fn seed_error(&self, typed: &str) -> String {
        format!("「{typed}」はシードとして使えません。0 から 18446744073709551615 までの整数を入力してください。")
    }

    fn bad_duration(&self, typed: &str) -> String {
        format!(
            "「{typed}」は時間として使えません。0 より大きく 3600 以下の秒数を入力してください。"
        )
    }

    fn seconds_between(&self, typed: &str, lo: &str, hi: &str) -> String {
        format!("「{typed}」はここでは使えません。{lo} から {hi} までの秒数を入力してください。")
    }

    fn scenario_title(&self, name: &str) -> String {
        match name {
            "calm" => "穏やかな会期".into(),
            "forced" => "強制される法令（B3）".into(),
            "crash-f" => "2F+1 人中 F 人の離脱：前進できる".into(),
            "crash-f-plus-1" => "F+1 人の離脱：前進しないが安全".into(),
            "dueling" => "決闘する提案者（ライブロック）".into(),
            "dueling-backoff" => "決闘をバックオフで解消".into(),
            "dueling-leader" => "決闘を議長で解消".into(),
            "lossy" => "消える使者・重複する使者".into(),
            "partition-heal" => "分断と、その解消".into(),
            "restart" => "台帳は再起動を越えて残る".into(),
            "bench-lossy" => "ベンチマーク：提案者 3 人・損失あり".into(),
            "kleppmann" => "Kleppmann のトークン 33 と 34".into(),
            "kleppmann-unfenced" => "トークン 33 と 34（フェンシングなし）".into(),
            "lone-pause" => "ワーカー 1 台、リース切れまで停止".into(),
            "lone-pause-token" => "ワーカー 1 台、リース切れ（トークンのみ）".into(),
            "llm-in-loop" => "リースループの中の LLM".into(),
            "llm-in-loop-unfenced" => "ループ内の LLM（フェンシングなし）".into(),
            "llm-beside" => "ループの外に置いた LLM".into(),
            "llm-outage-drill" => "訓練：LLM ベンダー停止".into(),
            "clock-drift" => "ずれすぎた時計".into(),
            "llm-article-cadence" => "記事のテンポ：TTL 1 秒、ループの中の LLM".into(),
            "llm-flaky" => "非決定性：同じ質問に違う答え".into(),
            "llm-throttled" => "権限：ベンダーのレート制限と回答拒否".into(),
            "llm-ttl-stretched" => "LLM のために延ばした TTL と、クラッシュ".into(),
            "replicated-store" => "ストア自体が Paxos グループ：マスターのクラッシュ".into(),
            "commit-2pc" => "2 相コミット".into(),
            "commit-2pc-tm-crash" => "2 相コミット：TM が故障".into(),
            "commit-paxos" => "Paxos Commit（F = 1）".into(),
            "commit-paxos-tm-crash" => "Paxos Commit：リーダーが故障".into(),
            "commit-paxos-f0" => "Paxos Commit（F = 0）".into(),
            "multi-calm" => "マルチ Paxos：安定したリーダー".into(),
            "multi-leader-crash" => "マルチ Paxos：パイプラインの途中でリーダーが停止".into(),
            "multi-catch-up" => "マルチ Paxos：遅れたレプリカが追いつく".into(),
            "two-masters" => "リースなしの 2 人のマスター：古い値の読み出し".into(),
            "master-lease" => "マスターリース：マスターは同時に 1 つ".into(),
            "chubby-failover" => "Chubby：マスターが交代しても、セッションは生き残る".into(),
            "chubby-sequencer" => "Chubby：止まっていたロック保持者の古いシーケンサ".into(),
            other => other.to_string(),
        }
    }

    fn mutation_title(&self, m: Mutation) -> &'static str {
        match m {
            Mutation::Paxos(PaxosMutation::SkipB3) => "B3 を省く：報告された票を無視",
            Mutation::Paxos(PaxosMutation::PickFirstVote) => "最初の票を採る：最大番号の票ではなく",
            Mutation::Paxos(PaxosMutation::ForgetOnRestart) => "再起動で忘れる：台帳が鉛筆書き",
            Mutation::Paxos(PaxosMutation::MinorityQuorum) => "少数派クォーラム：5 人中 2 人で十分",
            Mutation::Paxos(PaxosMutation::AcceptLowerBallot) => "小さい投票も受理：約束を破る",
            Mutation::Lease(LeaseMutation::BlindAcquire) => "比較なしの取得：compare-and-set なし",
            Mutation::Lease(LeaseMutation::NoEpochBump) => "引き継ぎでエポックを上げない",
            Mutation::Lease(LeaseMutation::NoFence) => "フェンスなし：どのエポックも受け付ける",
            Mutation::Multipaxos(m) => multipaxos::mutation_title(m),
            Mutation::Commit(CommitMutation::CommitWithoutAllPrepared) => {
                "全員の準備なしにコミット：沈黙を賛成とみなす"
            }
        }
    }

    fn unknown_link(&self, fragment: &str) -> String {
        let f: String = fragment.chars().take(40).collect();
        format!("「#{f}」を開くものはありません。シナリオのリンクは #s= か #run= で、レッスンのリンクは #lesson= とレッスンの ID で、投票表のリンクは #ballots= で始まります。いまの作業はそのままです。")
    }

    fn bad_run_link(&self, bad: &crate::i18n::BadRun) -> String {
        use crate::i18n::BadRun;
        let cut = |v: &str| v.chars().take(40).collect::<String>();
        let what = match bad {
            BadRun::Name(v) => format!(
                "「{}」という組み込みの実行はありません（リンクの run=）",
                cut(v)
            ),
            BadRun::Seed(v) => format!(
                "シード「{}」は 0 から 18446744073709551615 までの整数ではありません（リンクの seed=）",
                cut(v)
            ),
            BadRun::Mutation(v) => format!("「{}」という壊し方はありません（リンクの m=）", cut(v)),
            BadRun::Lesson(v) => format!("「{}」というレッスンはありません（リンクの lesson=。一覧は「レッスン」タブにあります）", cut(v)),
            BadRun::Step { asked, of, shown } => {
                return format!("このレッスンに「{}」というステップはありません（リンクの step=）。ステップは {of} つなので、ステップ {shown} を表示しています。", cut(asked))
            }
            BadRun::Time(v) => {
                return format!("このリンクの時刻「{}」はマイクロ秒の時刻ではありません（リンクの t=）。最初から表示しています。", cut(v))
            }
        };
        format!("このリンクは開けません：{what}。打ち間違いか、途中で切れていませんか。いまの作業はそのままです。")
    }

    fn part_loading(&self, what: &str) -> String {
        format!("「{what}」の画面を読み込んでいます…")
    }

    fn export_unavailable(&self) -> String {
        "書き出し機能を取得できませんでした（ネットワークかサーバーの不調）。作業は失われていません。もう一度お試しください。".to_string()
    }

    fn part_failed(&self, what: &str) -> String {
        format!("「{what}」の画面を取得できませんでした（ネットワークかサーバーの不調）。画面の作業は失われていません。もう一度お試しください。")
    }
}

impl Tell for Ja {
    fn import_error(&self, e: &crate::trace::import::ImportError) -> String {
        use crate::trace::import::ImportError as E;
        let what = match e {
            E::TooBig(n) => format!("ファイルが大きすぎます（{n} バイト。上限は 50 MB）"),
            E::Empty => "ファイルが空です".into(),
            E::NotJson(e) => format!("JSON として読めません（{}）", json_error(e)),
            E::NotATrace(what) => format!(
                "これは{}で、トレースでもシナリオでもありません。.trace.json かシナリオの .json ファイルを開いてください",
                match *what {
                    "a PNG picture" => "PNG 画像",
                    "an SVG picture" => "SVG 画像",
                    "a Mermaid diagram" => "Mermaid の図",
                    _ => "ShiViz のログ",
                }
            ),
            E::NotObject | E::WrongFormat(_) => "Paxos Island のトレースではありません".into(),
            E::WrongVersion(v) => format!("トレースの版 {v} には対応していません（対応は版 1）"),
            E::EventsNotList => "\"events\" がリストではありません".into(),
            E::BadEvent { index, problem } => {
                format!(
                    "イベント {index} が不正です（{}）",
                    reading::reading(problem)
                )
            }
            E::Nothing => "使えるシナリオもイベントもありません".into(),
            E::BadScenario(why) => format!("シナリオが不正です（{}）", reading::reading(why)),
        };
        format!("このファイルは開けません：{what}。いまの作業はそのままです。")
    }

    fn share_error(&self, e: &crate::trace::share::ShareError) -> String {
        use crate::trace::share::ShareError as E;
        let what = match e {
            E::Empty => "リンクにシナリオが入っていません".into(),
            E::NotALink => "Paxos Island のシナリオのリンクではありません".into(),
            E::TooLong(n) => format!("リンクが長すぎます（{n} 文字）"),
            E::UnknownVersion(v) => format!("別の版のリンクです（形式 {v}）"),
            E::Cut => "リンクが途中で切れています。最後の文字まで全部コピーしてください".into(),
            E::BadChar(c) => format!("このアプリのリンクには現れない文字 {c:?} が入っています（打ち間違いか、受け渡したプログラムがエスケープしていませんか）"),
            E::Changed => "リンクが変更されたか打ち間違えられています（チェックサムが合いません）".into(),
            E::Damaged(why) => format!("リンクが壊れていて展開できません（{why}）"),
            E::NotAScenario(why) => format!("展開はできますが、シナリオとして読めません（{}）", reading::reading(why)),
            E::Invalid(why) => format!("シナリオを実行できません（{}）", self.scenario_error(why)),
        };
        format!("このリンクは開けません：{what}。いまの作業はそのままです。")
    }

    fn import_status(&self, how: u8, n: usize, text: &str) -> String {
        match how {
            0 => format!("検証済みの再生：シナリオを再シミュレーションすると同じ {n} 個のイベントになります（トレースハッシュ {text}）。"),
            1 => format!("このトレースのイベントは、そのシナリオをここで実行したものと一致しません（イベント {n} 以降）。別の版の Paxos Island で記録されたか、編集されています。記録されたイベントをそのまま表示しています。"),
            3 => format!("実際のサーバー（{text}）でライブに記録されたトレースです。記録された {n} 個のイベントを表示しています。実時間で走った実行は再生できません。"),
            _ => format!("記録されたイベントだけを表示しています（{}）。", reading::reading(text)),
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
        // Spaces as the rest of the page has them (see `spaced`).
        spaced(&match say {
            Say::Sent { from, to, msg } => self.message(names, *from, n(*to), msg, false),
            Say::Broadcast { from, to, everyone, msg } => {
                let to = if *everyone { "全員".to_string() } else { join_names(names, to.iter().copied(), "・") };
                self.message(names, *from, to, msg, true)
            }
            Say::Dropped { from, to, msg, reason } => match reason {
                DropReason::Loss => format!("{} から {} への {} を運ぶ使者が行方不明になります。", n(*from), n(*to), msg_kind(msg)),
                DropReason::Partition => format!("{} の {} は分断を越えられず、{} に届きません。", n(*from), msg_kind(msg), n(*to)),
                // The chamber is the parliament's: elsewhere a node is down.
                DropReason::Down => format!(
                    "{} は{}ため、{} の {} は {} に届きません。",
                    n(*to),
                    if matches!(msg, Msg::Paxos(_)) { "議場を去っている" } else { "停止している" },
                    n(*from),
                    msg_kind(msg),
                    n(*to)
                ),
            },
            Say::Duplicated { from, to, msg } => format!("ネットワークが {} から {} への {} を重複させます。", n(*from), n(*to), msg_kind(msg)),
            Say::Timer { node, timer } => match timer {
                Timer::Paxos(PaxosTimer::PhaseTimeout) => format!("{} の砂時計が尽きます。時間内にクォーラムが集まりませんでした。", n(*node)),
                Timer::Paxos(PaxosTimer::Backoff) => format!("{} がランダムな待ち時間を終えます。", n(*node)),
                Timer::Lease(LeaseTimer::Deadline) => format!("{} 自身の期限が過ぎます。", n(*node)),
                Timer::Lease(LeaseTimer::LlmTimeout) => format!("{} が LLM の回答を待つのをあきらめます。", n(*node)),
                Timer::Commit(t) => commit::timer(&n(*node), *t),
                _ => format!("{} のタイマーが鳴ります。", n(*node)),
            },
            Say::Fault { fault, chamber } => match fault {
                Fault::Crash { node } if *chamber => format!("{} が議場を去ります（クラッシュ）。鉛筆のメモは消え、台帳は残ります。", n(*node)),
                Fault::Crash { node } => format!("{} がクラッシュします。メモリにだけあったものは消え、ディスクに書いたものは残ります。", n(*node)),
                Fault::Restart { node } if *chamber => format!("{} が議場に戻り、台帳を読み直します。", n(*node)),
                Fault::Restart { node } => format!("{} が再起動し、ディスクに書いたものを読み直します。", n(*node)),
                Fault::Pause { node, for_us } => format!(
                    "{} が {} 眠り込みます（クラッシュではなく一時停止。目覚めても以前の思い込みのままです）。",
                    n(*node),
                    self.duration(*for_us)
                ),
                Fault::Partition { groups, oneway } => {
                    let gs: Vec<String> = groups.iter().map(|g| format!("｛{}｝", join_names(names, g.iter().copied(), "・"))).collect();
                    if *oneway {
                        format!("{} から {} へは使者が届かなくなります。", gs[0], gs[1..].join("・"))
                    } else {
                        format!("分断：{} の間を使者が行き来できません。", gs.join(" と "))
                    }
                }
                Fault::Heal => "分断が解消し、すべての道が再び通じます。".into(),
                Fault::SetLoss { p } => format!("これ以降、使者は {} % の確率で行方不明になります。", crate::float::fixed(p * 100.0, 0)),
                Fault::SetDuplicate { p } => format!("これ以降、メッセージは {} % の確率で重複します。", crate::float::fixed(p * 100.0, 0)),
                Fault::SetReorder { p } => format!("これ以降、{} % のメッセージが遅れて追い越されます。", crate::float::fixed(p * 100.0, 0)),
                Fault::SetLatency { latency } => format!("使者の所要時間はおよそ {} になります。", self.duration(latency.median_us())),
                Fault::ClockStep { node, by_us } => format!(
                    "{} の時計が {} {}。",
                    n(*node),
                    self.duration(by_us.unsigned_abs()),
                    if *by_us >= 0 { "進みます" } else { "戻ります" }
                ),
                Fault::Deliver { id } => format!("台本がメッセージ {id} を届けます（検査器が選んだ一歩）。"),
                Fault::Fire { node, timer } => format!("台本が {} の砂時計を切らせます（{timer}）。", n(*node)),
                Fault::SetDrift { node, ppm } => format!("{} の時計が {} ppm {}なります。", n(*node), ppm.abs(), if *ppm >= 0 { "速く" } else { "遅く" }),
            },
            Say::Command { command } => match command {
                Command::Paxos(PaxosCommand::Propose { node, value }) => format!("{} が法令 {value} の提案を頼まれます。", n(*node)),
                Command::Lease(LeaseCommand::LlmStall { node, for_us }) => format!("{} への LLM の次の回答は {} かかります。", n(*node), self.duration(*for_us)),
                Command::Lease(LeaseCommand::LlmOutage { down: true }) => "LLM ベンダーが停止します。".into(),
                Command::Lease(LeaseCommand::LlmOutage { down: false }) => "LLM ベンダーが復旧します。".into(),
                Command::Multipaxos(c) => multipaxos::command(names, c),
                Command::Commit(CommitCommand::VoteAbort { node }) => format!("{} は準備を求められたら「中止」に投票します。", n(*node)),
            },
            Say::Woke { node } => format!("{} が目を覚まします。眠る前の思い込みのままです。", n(*node)),
            Say::Paxos { node, note } => {
                let who = n(*node);
                match note {
                    PaxosNote::PromiseQuorum { ballot, members } => format!(
                        "{who} は投票 {} について過半数（{}）から約束を得ました。",
                        self.ballot(names, *ballot),
                        join_names(names, members.iter(), "・")
                    ),
                    PaxosNote::ValuePicked { value, choice: Choice::Free, .. } => {
                        format!("自由：クォーラムの誰もまだ賛成していないので、{who} は自分の法令 {value} を提案します。")
                    }
                    PaxosNote::ValuePicked { value, choice: Choice::Forced { by, voter }, .. } => format!(
                        "強制（B3）：報告された最も新しい賛成票は {} が投票 {} で {value} に投じたもの。{who} は {value} を提案しなければなりません。",
                        n(*voter),
                        self.ballot(names, *by)
                    ),
                    PaxosNote::ValuePicked { value, choice: Choice::Ignored { by, voter }, .. } => format!(
                        "B3 破り：賛成票の報告がありました（最も新しいのは {} の投票 {} での票）が、{who} はそれを無視して自分の法令 {value} を提案します。",
                        n(*voter),
                        self.ballot(names, *by)
                    ),
                    PaxosNote::ValuePicked { value, choice: Choice::NotHighest { by, voter, highest }, .. } => format!(
                        "B3 破り：投票 {} のもっと新しい票があるのに、{who} は最初に報告された票（{} が投票 {} で {value} に投じたもの）を取ります。",
                        self.ballot(names, *highest),
                        n(*voter),
                        self.ballot(names, *by)
                    ),
                    PaxosNote::AcceptedQuorum { value, members, .. } => format!(
                        "{who} は過半数（{}）の賛成票を得ました。法令 {value} は可決です。",
                        join_names(names, members.iter(), "・")
                    ),
                    PaxosNote::Preempted { ballot, by } => format!(
                        "{who} は自分の投票 {} より大きい投票 {} を見て、自分の投票をあきらめます。",
                        self.ballot(names, *ballot),
                        self.ballot(names, *by)
                    ),
                    PaxosNote::Ignored { ballot, promised, phase } => format!(
                        "{who} は投票 {} の {phase} 要求を無視します。すでに投票 {} を約束しているからです。",
                        self.ballot(names, *ballot),
                        self.ballot(names, *promised)
                    ),
                    PaxosNote::Learned { value, .. } => format!("{who} が法令 {value} を台帳にインクで書き込みます。"),
                    PaxosNote::LearnConflict { have, told } => format!("{who} の台帳には {have} とあるのに、{told} が可決されたと告げられます！"),
                    PaxosNote::Chosen { ballot, value, members } => format!(
                        "過半数（{}）が投票 {} で {value} に賛成しました。{value} が選ばれました。",
                        join_names(names, members.iter(), "・"),
                        self.ballot(names, *ballot)
                    ),
                    PaxosNote::BallotStarted { ballot } => format!("{who} が投票 {} を始めます。", self.ballot(names, *ballot)),
                    PaxosNote::Asked { value } => format!("{who} は法令 {value} を通したいと考えています。"),
                    PaxosNote::Ledger { .. } => format!("{who} が台帳を更新します。"),
                }
            }
            Say::Multi { node, note } => multipaxos::note(self, names, &n(*node), note),
            Say::Commit { node, note } => commit::note(names, &n(*node), note),
            Say::Lease { node, note } => {
                let who = n(*node);
                match *note {
                    LeaseNote::Granted { holder, epoch, expires_at_us, .. } => format!(
                        "ストアが {} にエポック {epoch} でリースを与えます（ストアの時計で {} まで）。",
                        n(holder),
                        self.duration(expires_at_us)
                    ),
                    LeaseNote::Renewed { holder, epoch, .. } => format!("{} がリースを更新します。エポックは {epoch} のままです。", n(holder)),
                    LeaseNote::Refused { asker, holder, epoch, .. } => {
                        format!("ストアは {} を断ります。エポック {epoch} を {} が保持しています。", n(asker), n(holder))
                    }
                    LeaseNote::Released { holder, epoch, .. } => format!("{} がリース（エポック {epoch}）を手放します。", n(holder)),
                    LeaseNote::Expired { holder, epoch, view: View::Worker } => {
                        format!("{} は、リース（エポック {epoch}）を保持しているとはもう考えません。", n(holder))
                    }
                    LeaseNote::Expired { holder, epoch, view: View::Store } => {
                        format!("ストアの時計では、{} のリース（エポック {epoch}）は期限切れです。", n(holder))
                    }
                    LeaseNote::Belief { holding: true, epoch } => format!("{who} はリース（エポック {epoch}）を持っていると信じています。"),
                    LeaseNote::Belief { holding: false, .. } => format!("{who} はもうリースを持っているとは考えていません。"),
                    LeaseNote::WriteSent { key, epoch } => format!("{who} がエポック {epoch} で {} に書き込みます。", key_name(key)),
                    LeaseNote::WriteAccepted { writer, epoch, key, .. } => {
                        format!("orders が {} によるエポック {epoch} の {} への書き込みを受け付けます。", n(writer), key_name(key))
                    }
                    LeaseNote::WriteRejected { writer, key, .. } => format!(
                        "orders が {} の {} への書き込みを拒否します：{}。",
                        n(writer),
                        key_name(key),
                        Refused::of(note).map(|r| self.refusal(names, &r)).unwrap_or_default()
                    ),
                    LeaseNote::LlmRequest { purpose: Purpose::KeepLease } => {
                        format!("{who} が LLM に「リースを保持すべきか」と尋ね、答えを待ちます。")
                    }
                    LeaseNote::LlmRequest { purpose: Purpose::Explain } => {
                        format!("{who} が LLM に事後の説明を頼みます。誰もその答えを待ちません。")
                    }
                    LeaseNote::LlmResponse { latency_us, outcome: o } => {
                        format!("{who} に {} 後、LLM の回答が届きます：{}。", self.duration(latency_us), outcome(o))
                    }
                    LeaseNote::SplitBrainStart { believers } => format!(
                        "スプリットブレイン：{} がそれぞれリースを持っていると信じています。",
                        join_names(names, (0..64u8).filter(|i| believers & (1 << i) != 0).map(NodeId), " と ")
                    ),
                    LeaseNote::SplitBrainEnd { lasted_us } => format!("スプリットブレインが {} で終わります。", self.duration(lasted_us)),
                }
            }
            // The same detail as the English, read back from the monitor's
            // sentence; one this version does not know falls back to the rule.
            Say::Violation { invariant, detail, .. } => format!(
                "「{}」が破られました：{}",
                self.invariant(*invariant),
                violation::detail(detail).unwrap_or_else(|| self.invariant_meaning(*invariant).to_string())
            ),
            Say::Foreign { node, kind, detail } => format!("{}：{kind} {detail}", n(*node)),
        })
    }

    fn invariant(&self, inv: Invariant) -> &'static str {
        match inv {
            Invariant::Agreement => "合意",
            Invariant::Validity => "妥当性",
            Invariant::OneValuePerBallot => "1 投票 1 法令",
            Invariant::PromiseMonotonic => "約束の保持",
            Invariant::VoteBelowPromise => "賛成票 ≦ 約束",
            Invariant::LearnerConsistency => "学習者の一致",
            Invariant::SingleGrant => "リースは同時に 1 つ",
            Invariant::EpochUnique => "エポックは増加",
            Invariant::FencingMonotonic => "フェンス付き書き込み",
            Invariant::LogPrefix => "どこでも同じログ",
            Invariant::SingleMaster => "マスターは同時に 1 つ",
            Invariant::FreshReads => "古い値を読まない",
            Invariant::LiveLease => "有効なリースだけが書き込む",
            Invariant::Atomicity => "原子性",
            Invariant::CommitValidity => "全員が準備完了のときだけコミット",
        }
    }

    fn invariant_meaning(&self, inv: Invariant) -> &'static str {
        match inv {
            Invariant::Agreement => "選ばれる法令は高々 1 つです。",
            Invariant::Validity => "誰かが提案した法令だけが投票にかけられます。",
            Invariant::OneValuePerBallot => "1 つの投票の賛成票はすべて同じ法令に対するものです。",
            Invariant::PromiseMonotonic => "受容者の約束は再起動をはさんでも下がらず、約束より小さい投票には賛成しません。",
            Invariant::VoteBelowPromise => "受容者の最後の賛成票が約束を上回ることはありません。",
            Invariant::LearnerConsistency => "学習者は選ばれた法令だけを学び、学習者どうしで食い違いません。",
            Invariant::SingleGrant => "ストアが期限内のリースを同時に 2 つ与えることはありません。",
            Invariant::EpochUnique => "各エポックの保持者は 1 人で、新しい保持者はより大きいエポックを得ます。",
            Invariant::FencingMonotonic => "フェンスで守られた記憶域は、すでに受け付けたトークンより小さいものを受け付けません。行ならエポック、Chubby のファイルサーバならロックの世代です。",
            Invariant::LogPrefix => "どのレプリカも各スロットで同じ命令を適用します。適用済みのログは互いに前半部分が一致します。",
            Invariant::SingleMaster => "どの瞬間にも、マスターリースを持っていると信じるレプリカは高々 1 つです。",
            Invariant::FreshReads => "読み出しが始まる前に完了した書き込みより古い値を、読み出しが返すことはありません。",
            Invariant::LiveLease => "書き込みが通るのは、その瞬間にストアで有効なリースのエポックを持つときだけです。",
            Invariant::Atomicity => "ある RM がコミットし、別の RM がアボートすることは決してありません。",
            Invariant::CommitValidity => "すべての RM が「準備完了」に投票したときだけ、トランザクションはコミットされます。",
        }
    }

    fn scenario_error(&self, e: &crate::scenario::ScenarioError) -> String {
        reading::reading(&e.to_string())
    }

    fn setting_error(&self, what: &str, why: &str) -> String {
        format!("{what}：{why}")
    }

    fn bad_decree(&self, e: &crate::protocol::value::BadValue) -> String {
        use crate::protocol::value::BadValue;
        match e {
            BadValue::Empty => "法令を空にはできません。".into(),
            BadValue::TooLong { bytes } => format!(
                "法令は 24 バイト（日本語なら約 8 文字）までです。入力は {bytes} バイトあります。"
            ),
            BadValue::Control => "法令に制御文字は使えません。".into(),
        }
    }

    fn partition_error(&self) -> String {
        "グループ A と B に、それぞれ少なくとも 1 人の議員を入れてください。".into()
    }

    fn bad_latency(&self, typed: &str) -> String {
        format!("「{typed}」は遅延として使えません。100 のようなミリ秒か、60–140 のような範囲を入力してください。")
    }

    fn bad_percent(&self, typed: &str) -> String {
        format!("「{typed}」は割合として使えません。0 から 100 までの数を入力してください。")
    }

    fn caption_changed(&self) -> &'static str {
        "（これは組み込みの実行の説明です。画面の実行はその後、障害の追加や設定の編集で変わっていて、その結果を表示しています。）"
    }

    fn scenario_caption(&self, name: &str) -> &'static str {
        match name {
            "calm" => "Α が 5 人の議員に法令 α を提案します。フェーズ 1（prepare・promise）とフェーズ 2（accept・accepted）、そして可決の通知を見てください。",
            "forced" => "Α は α への賛成票を集めたあと、誰かが結果を知る前に議場を去ります。後から Γ が γ を通そうとしますが、約束に Α の投票が報告されるため、B3 により α が強制されます。",
            "crash-f" => "Δ と Ε が不在です。5 人中 3 人はまだ過半数なので、法令は可決されます。",
            "crash-f-plus-1" => "Γ・Δ・Ε が不在です。5 人中 2 人は過半数ではないので投票は失敗しますが、誤ったことは決して起きません。",
            "dueling" => "Α と Β が互いに割り込み続けます。新しい prepare が相手の投票を無効にし、いつまでも法令が可決されません。",
            "dueling-backoff" => "同じ決闘ですが、割り込まれた提案者はランダムな時間待ってから再挑戦します。",
            "dueling-leader" => "同じ決闘ですが、二人の提案者のうち名前が後に来る Β が議長を務めます。Α は Β の声が聞こえている間は黙っています。",
            "lossy" => "使者の 5 分の 1 が行方不明になり、一部は重複し、一部は追い越されます。前進は遅くなりますが、安全性は損なわれません。",
            "partition-heal" => "｛Α・Β｝と｛Γ・Δ・Ε｝の間が分断されます。ε を可決できるのは過半数の側だけです。分断が解けると、Α の投票は ε に強制されます。",
            "restart" => "Γ と Δ は α に賛成した後にクラッシュし、復帰しました。台帳の裏の覚え書きに賛成票が残っているので、Β は α を強制されます。",
            "bench-lossy" => "ベンチマーク用の負荷：損失のあるネットワーク上の 3 人の提案者。",
            "kleppmann" => "W1 はエポック 33 を持ったまま一時停止（GC の停止）します。リースは期限切れになり、W2 が 34 を得て書き込みます。目覚めた W1 が 33 で書き込むと、ストレージが拒否します。",
            "kleppmann-unfenced" => "同じ一時停止ですが、ストレージがエポックを確認しません。W1 の遅れた 33 の書き込みが W2 の新しいデータを上書きします。",
            "lone-pause" => "W1 だけがエポック 33 を持ち、リースが切れるまで停止します。誰も引き継ぎません。目覚めたとき 33 はまだ最大のエポックですが、リースはもう無効です。記事のフェンスはこの書き込みを拒否します。",
            "lone-pause-token" => "同じ停止を、Kleppmann のトークンだけで守ります。33 より大きいエポックはないので、無効なリースでの書き込みが通ります。拒否されず、数えられるだけです。",
            "llm-in-loop" => "各ワーカーは更新のたびに LLM に尋ね、答えを待ちます。6 秒以降の W1 の次の呼び出しが 12 秒止まり、リースが切れて W2 が引き継ぎます。目覚めた W1 はまだ保持していると信じています。",
            "llm-in-loop-unfenced" => "同じ停止でフェンシングなし：古い書き込みが通り、行を壊します。",
            "llm-beside" => "同じ停止ですが、ワーカーは LLM を呼びません。切れたリースの説明は、別のプロセスであるアドバイザーが事後に LLM に頼みます。何も壊れません。",
            "llm-outage-drill" => "5 秒に LLM ベンダーが停止します。LLM がループの中にあると誰も更新できず、リースループが止まります。",
            "llm-flaky" => "ループの中の高速な LLM ですが、答えが揺れます。たいていは「保持せよ」、ときどき「手放せ」、ときどき壊れた JSON。30 秒の間に、理由もなくリースが二度持ち主を変えます。",
            "llm-throttled" => "ループの中の高速な LLM ですが、ベンダーが五回に一回レート制限をかけ、二十回に一回回答を拒否します。ループはそれに従い、待っている間にリースが切れます。",
            "llm-ttl-stretched" => "2 秒かかる LLM を待つために TTL を 10 秒に延ばしました。5 秒に保持者がクラッシュし、そのリースが切れるまで誰も書き込めません。",
            "replicated-store" => "ストアはマルチ Paxos グループの 3 台のレプリカです。マスター S1 が W2 にエポック 33 を与えます。4 秒に S1 がクラッシュします。S2 と S3 は S1 のマスターリースが切れるまで新しいマスターを拒み、4.8 秒に S2 が選ばれ、5.2 秒に W2 のリースを更新します。リースはマスター交代を越えて保たれました。その後 12.25 秒に W2 が停止し、S2 が W1 にエポック 34 を与え、目覚めた W2 の 33 での書き込みは拒否されます。",
            "llm-article-cadence" => "記事のテンポ（300 ミリ秒ごとに更新、TTL 1 秒）で、高速な API をループの中に置きます。停止は一度もありません。それでも p99（0.76 秒）が TTL の半分を超えるのでレッドフラッグ 2 が点灯し、30 秒の間に遅い回答で三度リースが切れ、20.4 秒には W3 が W1 から引き継ぎます。",
            "clock-drift" => "W1 の時計は 20 % 遅れ、ストアの時計は 10 % 進みます。ストアから切り離された W1 は長く信じすぎますが、フェンシングが書き込みを止めます。",
            "commit-2pc" => "RM1 がコミットを求めます。RM1 のノードにいる TM がほかの RM に準備を求め、5 票を集め、コミットを書いて全員に伝えます。",
            "commit-2pc-tm-crash" => "すべての RM が準備を終えたあとで TM のノードが故障します。RM は結果が分からないままロックを保持し、3 秒に TM が戻るまで待ちます。",
            "commit-paxos" => "各 RM の票は、3 つの受容者（F = 1）の上で、それぞれ専用の Synod が決めます。RM1 のノードのリーダーが 5 つすべてを学習し、コミットを伝えます。",
            "commit-paxos-tm-crash" => "同じ瞬間にリーダーのノードが故障します。RM2 のコーディネータがより大きな投票で引き継ぎ、RM は待たずにコミットします。",
            "commit-paxos-f0" => "F = 0：受容者は TM のノードに 1 つだけ。2 相コミットと矢印まで同じメッセージになります。",
            "multi-calm" => "Α はフェーズ 1 を一度だけ実行してリーダーになります。以後、各命令はフェーズ 2 だけで済み、2 つのスロットが同時に進みます。読み出しにはリーダーが自分の写しから答えます。",
            "multi-leader-crash" => "Α は 3 つのスロットを進行中に停止します。スロット 2 の受理要求はだれにも届きませんでした。受容者が Α に与えたリースの約束が続くあいだ Β と Γ は拒まれ、その後 Δ が勝ち、約束からスロット 1 と 3 を回復し（B3）、スロット 2 を no-op で埋めます。",
            "multi-catch-up" => "Γ が切り離されているあいだに、Α と Β が 4 つのスロットを選びます。0.7 秒に回復すると、Γ はハートビートで遅れに気づき、抜けたスロットを求めて順に適用します。",
            "two-masters" => "リースなし。0.6 秒に Α は C1 とともに切り離されますが、まだリーダーだと信じています。Β が選ばれ、C2 は Β を通して x = 2 を書きます。2.2 秒、Α は C1 の読み出しに自分の写しから x = 1 と答えます。古い値です。",
            "master-lease" => "同じ分断で、1 秒のマスターリースあり。Β は Α に与えられた約束が切れるのを待ってから選ばれます。Α のリースは先に切れるので、C1 の読み出しに単独では答えられません。回復後に Β が x = 2 と答えます。",
            "chubby-failover" => "5 台の Chubby セル。C1 がセッションを開き、ロック 0（世代 1）を取ってファイルサーバ F に書き込みます。0.8 秒にマスター Α がクラッシュします。1.67 秒、C1 自身のセッションリースの見積もりが切れ、危険状態（jeopardy）に入って 3 秒の猶予期間が始まります。Α のマスターリースが終わった 1.75 秒に Δ が選ばれ、Α が与えた可能性のある最長のセッションリースを仮定します。1.96 秒に C1 のキープアライブが Δ に届き、新しいエポックで安全に戻ります。2.9 秒に C1 が世代 1 のまま再び書き込みます。F は知っていたマスター Α にシーケンサを確かめようとしますが、Α はもういないので確認は失われます。3.4 秒に C1 が書き込みをやり直し、F は Β から Δ に回されて、3.45 秒に書き込みを受け付けます。ロックはマスター交代を越えて保たれました。",
            "chubby-sequencer" => "C1 はロック 0（世代 1）を持ち、ファイルサーバ F に a を書き込み済みです。0.9 秒に C1 は 3 秒間止まります。マスターはキープアライブを受け取れず、1.82 秒にログを通して C1 のセッションを終えます。C2 が 2.54 秒に世代 2 でロックを得ます。3.9 秒に目覚めた C1 はまだロックを持っていると信じて、世代 1 で b を書き込みます。F はそれより大きい世代をまだ見ていないので、セルに問い合わせます。もう有効ではないので拒否。続く C2 の世代 2 の書き込みは通ります。",
            _ => "",
        }
    }

    fn mc_size(&self, states: Option<usize>) -> String {
        match states {
            Some(n) => format!("全探索で {} 個の状態を調べます。", group(n)),
            None => "この探索で調べる状態の数は前もってわかりません。".into(),
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
            .map(|s| format!("、残り約 {}", self.duration((s * 1e6) as u64)))
            .unwrap_or_default();
        format!(
            "状態 {} 個、深さ {} 歩、未展開 {} 個 — 毎秒 {} 状態{left}",
            group(states),
            depth,
            group(waiting),
            group(rate as usize)
        )
    }

    fn mc_clean(&self, states: usize, secs: f64, truncated: bool) -> String {
        let secs = crate::float::fixed(secs, 1);
        if truncated {
            format!("最初の {} 個の状態（{secs} 秒）に違反はありません。ただし上限で探索を止めたので、すべてのスケジュールは調べていません。", group(states))
        } else {
            format!("{} 個の状態（{secs} 秒）に違反はありません。この構成のどのスケジュールでも、すべての規則が守られます。", group(states))
        }
    }

    fn mc_found(&self, invariant: &str, steps: usize, states: usize) -> String {
        format!("{invariant}が破れました。最短の反例は {steps} 歩です（{} 個の状態の中から見つけました）。", group(states))
    }

    fn mc_also(&self, invariant: &str, steps: usize) -> String {
        format!("途中で{invariant}も破れています（{steps} 歩）。")
    }

    fn mc_cancelled(&self, states: usize) -> String {
        format!("{} 個の状態を調べたところで中止しました。", group(states))
    }

    fn mc_failed(&self, why: &str) -> String {
        format!("モデル検査を実行できませんでした（{why}）。画面の作業はそのままです。もう一度試すか、ページを再読み込みしてください。")
    }

    fn mc_bad_number(&self, field: &str, typed: &str, min: u32, max: u32) -> String {
        format!("{field}：「{typed}」は {min} から {max} までの整数ではありません。")
    }

    fn mc_scenario_name(&self, invariant: &str) -> String {
        format!("反例：{invariant}")
    }

    fn commit_protocol(
        &self,
        algorithm: crate::protocol::commit::Algorithm,
        faster: bool,
        f: usize,
    ) -> String {
        use crate::protocol::commit::Algorithm;
        match (algorithm, faster) {
            (Algorithm::TwoPhaseCommit, _) => "2 相コミット".into(),
            (Algorithm::PaxosCommit, false) => format!("Paxos Commit（F = {f}）"),
            (Algorithm::PaxosCommit, true) => format!("Faster Paxos Commit（F = {f}）"),
        }
    }

    fn flag_detail(&self, which: usize, f: &crate::check::red_flags::RedFlags) -> String {
        let d = |us: u64| self.duration(us);
        let opt = |x: Option<u64>| x.map(d).unwrap_or_else(|| "—".into());
        match which {
            0 if f.depends_on_llm => format!(
                "この実行でワーカーは LLM に {} 回質問し、そのたびに回答を待ちました。リースのモジュールがデータベースだけでなく LLM ベンダーとも通信しています。",
                f.worker_llm_calls
            ),
            0 if f.has_llm => format!(
                "この実行でワーカーは一度も LLM に質問していません。リースループとは別のプロセスであるアドバイザーが、切れたリースの説明を LLM に {} 回頼みましたが、その回答を待つものは何もありません。",
                f.other_llm_calls
            ),
            0 => "ループの近くに LLM はありません。".into(),
            1 => format!(
                "{}p99 {}（中央値 {}）、TTL の半分は {}{}",
                if f.has_llm { "LLM ベンダーの想定（「LLM のふるまい」の設定で、この実行の呼び出しではありません）：" } else { "" },
                opt(f.llm_p99_us),
                opt(f.llm_p50_us),
                d(f.ttl_us / 2),
                if f.has_llm && !f.in_loop { "。ここではループが待たないので無害です。" } else { "" }
            ),
            2 if f.ttl_stretched => format!(
                "TTL は {}（本来は {}）。クラッシュ後のフェイルオーバーは {}（本来は {}）、切り離された保持者が動き続けうる時間は最大 {}（本来は {}）。",
                d(f.ttl_us),
                d(f.baseline_ttl_us),
                opt(f.failover_us),
                opt(f.baseline_failover_us),
                d(f.exposure_us),
                d(f.baseline_exposure_us)
            ),
            2 => format!("TTL は {}。LLM に合わせた長さではありません。", d(f.ttl_us)),
            _ => format!(
                "LLM が止まっていると、誰かがリースを持っている時間は {} %（通常 {} %）、書き込まれた注文は {} 件（通常 {} 件）です。",
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
            let unit = match a.unit {
                Millisecond => "ミリ秒",
                Second => "秒",
                Minute => "分",
                Hour => "時間",
                Day => "日",
                Month => "か月",
                Year => "年",
                Century => "世紀",
                Millennium => "千年紀",
            };
            format!("{n} {unit}")
        };
        let mut s = format!("{}{}", if h.approx { "約 " } else { "" }, one(&h.major));
        if let Some(m) = &h.minor {
            s.push(' ');
            s.push_str(&one(m));
        }
        s
    }

    fn ballots_link_error(&self, e: &crate::scenario::ballots::link::LinkError) -> String {
        use crate::scenario::ballots::link::{LinkError::*, MAX_FIELD, MAX_ROWS};
        let what = match e {
            Empty => "行が 1 つもありません".to_string(),
            TooManyRows(n) => format!("行が {n} 行あり、上限の {MAX_ROWS} 行を超えています"),
            Fields { row, found } => format!(
                "{row} 行目の欄が {found} 個です（番号.法令.クォーラム.賛成者 の 4 個のはずです）"
            ),
            Text { row } => format!(
                "{row} 行目の番号か法令が、{MAX_FIELD} 文字以内のパーセントエンコードされた文字列ではありません"
            ),
            Set { row, voters, typed, of } => format!(
                "{row} 行目の{}「{typed}」は {of} 人の司祭の集合（0 から {} までの数）ではありません",
                if *voters { "賛成者" } else { "クォーラム" },
                (1u64 << of) - 1
            ),
        };
        format!("このリンクの投票表は読めません：{what}。途中で切れていませんか？ 画面の表はそのままです。")
    }

    fn ballot_finding(&self, f: &super::BallotFinding) -> String {
        use super::BallotFinding::*;
        match f {
            B1Holds => "B1 成立：どの投票にも固有の番号があります。".into(),
            B1Duplicate { number, count } => format!("B1 違反：{count} つの投票が同じ番号 {number} を持っています。"),
            B2Holds => "B2 成立：どの 2 つのクォーラムにも共通の司祭がいます。".into(),
            B2Disjoint { a, b } => format!("B2 違反：投票 {a} と {b} のクォーラムに共通の司祭がいません。"),
            B3Holds { forced, free } => format!(
                "B3 成立：強制される {forced} つの投票はどれも、クォーラム内でそれより前の最新の賛成票の法令を守っています。自由な投票は {free} つです。"
            ),
            B3Broken { numbers } => format!("B3 違反：投票 {numbers} は、クォーラム内でそれより前の最新の賛成票が強制する法令とは別の法令を提案しています。"),
            Free => "自由：クォーラムの誰も、これより前の投票で賛成していません".into(),
            Forced { by, decree, voters, satisfied, ambiguous } => format!(
                "{}投票 {by} での {voters} の賛成票により {decree} に強制{}",
                if *satisfied { "" } else { "B3 違反：" },
                if *ambiguous { "（同じ番号の投票があるため曖昧）" } else { "" }
            ),
            Successful => "成功：クォーラム全員が賛成".into(),
            Pinned { first, decree } => format!("定理 1 成立：投票 {first} が成功したので、それ以降の投票はすべて {decree} に固定されます。"),
            NoSuccess => "まだ成功した投票はありません。何も決まっていません。".into(),
            Disagree { a, b } => format!("一貫性の違反：投票 {a} と {b} がどちらも成功し、法令が異なります。"),
            EmptyQuorum { number } => format!("投票 {number}：クォーラムを空にはできません。"),
            EmptyDecree { number } => format!("投票 {number}：法令がありません。"),
            BadNumber { typed } => format!("「{typed}」は投票番号として使えません。整数を入力してください。"),
            VoterOutsideQuorum { number, priest } => format!("投票 {number}：{priest} はクォーラム外で賛成しています（数学的には許されますが、プロトコルでは起きません）。"),
            Reconstructed => "賛成者は再構成（論文の図には示されていません）".into(),
        }
    }

    fn mark(&self, names: &[String], note: &crate::protocol::Note) -> Option<String> {
        use crate::protocol::Note;
        let n = |id: NodeId| name(names, id).to_string();
        Some(match note {
            Note::Paxos(p) => match *p {
                PaxosNote::Learned { value, .. } => format!("{value} を学習"),
                PaxosNote::Chosen {
                    ballot,
                    value,
                    members,
                } => format!(
                    "{value} が選ばれる（{}、{}）",
                    self.ballot(names, ballot),
                    join_names(names, members.iter(), "・")
                ),
                PaxosNote::LearnConflict { have, told } => {
                    format!("{have} を学習済みなのに {told} と告げられる")
                }
                PaxosNote::ValuePicked {
                    value,
                    choice: Choice::Free,
                    ..
                } => format!("{value} を提案（自由）"),
                PaxosNote::ValuePicked {
                    value,
                    choice: Choice::Forced { by, .. },
                    ..
                } => {
                    format!("{value} を提案（{} により強制）", self.ballot(names, by))
                }
                PaxosNote::ValuePicked {
                    value,
                    choice: Choice::Ignored { by, .. },
                    ..
                } => format!(
                    "{value} を提案（B3 破り：{} を無視）",
                    self.ballot(names, by)
                ),
                PaxosNote::ValuePicked {
                    value,
                    choice: Choice::NotHighest { by, highest, .. },
                    ..
                } => format!(
                    "{value} を提案（B3 破り：{} より高い {} あり）",
                    self.ballot(names, by),
                    self.ballot(names, highest)
                ),
                _ => return None,
            },
            Note::Lease(l) => match *l {
                LeaseNote::Granted { holder, epoch, .. } => {
                    format!("{} に e{epoch} を付与", n(holder))
                }
                LeaseNote::Released { holder, epoch, .. } => {
                    format!("{} が e{epoch} を返却", n(holder))
                }
                LeaseNote::Expired {
                    holder,
                    epoch,
                    view,
                } => format!(
                    "{} の e{epoch} が期限切れ（{}）",
                    n(holder),
                    match view {
                        View::Worker => "本人の時計",
                        View::Store => "ストアの時計",
                    }
                ),
                LeaseNote::WriteRejected {
                    epoch, key, reason, ..
                } => format!(
                    "{} 拒否 e{epoch}（{}）",
                    key_name(key),
                    match reason {
                        Refusal::RowFenced => "行フェンス",
                        Refusal::LeaseHeldByAnother => "別のリース",
                        Refusal::LeaseExpired => "期限切れ",
                    }
                ),
                LeaseNote::SplitBrainStart { believers } => format!(
                    "スプリットブレイン {}",
                    join_names(
                        names,
                        (0..64u8).filter(|i| believers & (1 << i) != 0).map(NodeId),
                        "・"
                    )
                ),
                LeaseNote::SplitBrainEnd { lasted_us } => {
                    format!("スプリットブレイン終了（{}）", self.duration(lasted_us))
                }
                _ => return None,
            },
            Note::Multipaxos(m) => return multipaxos::mark(names, m),
            Note::Commit(c) => match *c {
                CommitNote::RmVoted {
                    vote: RmVote::Prepared,
                } => "準備完了".into(),
                CommitNote::RmVoted {
                    vote: RmVote::Aborted,
                } => "中止に投票".into(),
                CommitNote::RmDecided {
                    outcome: Outcome::Commit,
                } => "コミット".into(),
                CommitNote::RmDecided {
                    outcome: Outcome::Abort,
                } => "アボート".into(),
                CommitNote::TmDecided {
                    outcome: Outcome::Commit,
                }
                | CommitNote::LeaderDecided {
                    outcome: Outcome::Commit,
                } => "決定：コミット".into(),
                CommitNote::TmDecided {
                    outcome: Outcome::Abort,
                }
                | CommitNote::LeaderDecided {
                    outcome: Outcome::Abort,
                } => "決定：アボート".into(),
                CommitNote::CoordinatorBallot { ballot, .. } => {
                    format!("引き継ぎ {}", commit::ballot(names, ballot))
                }
                _ => return None,
            },
        })
    }

    fn refusal(&self, names: &[String], r: &Refused) -> String {
        match (r.reason, r.lease) {
            (Refusal::RowFenced, _) => format!("行がより大きいエポックでフェンスされています（この行はエポック {} で書き込み済みで、{} より大きい）", r.row, r.epoch),
            (Refusal::LeaseExpired, Some(l)) => format!(
                "リースの期限切れです（エポック {} は {}に切れ、ストレージの時計は {}を指しています）",
                r.epoch,
                self.duration(l.expires_at.0),
                self.duration(r.now_us)
            ),
            (Refusal::LeaseExpired, None) => format!("リースの期限切れです（エポック {} はもう有効ではありません）", r.epoch),
            (Refusal::LeaseHeldByAnother, Some(l)) if l.holder == r.writer => {
                format!("リースは別のものになっています（有効なリースは今はエポック {} で、{} ではありません）", l.epoch, r.epoch)
            }
            (Refusal::LeaseHeldByAnother, Some(l)) => {
                format!("リースは別のワーカーが保持しています（{} がエポック {} の有効なリースを持っています）", name(names, l.holder), l.epoch)
            }
            (Refusal::LeaseHeldByAnother, None) => "リースは誰にも与えられていません".into(),
        }
    }
}
