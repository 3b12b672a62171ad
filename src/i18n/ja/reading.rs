//! A reading complaint in Japanese. The readers of scenarios and traces
//! (`json::value`, `json::tagged`, `trace::import`, `Scenario::validate`)
//! word their complaints as serde did, in English, with where they are:
//! "`nodes`: item 2: `roles`: item 1: unknown variant `acceptr`, expected
//! one of `proposer`, …". Here the place and the complaint are said again in
//! Japanese; names, keys and values stay as the file has them. A complaint
//! this table does not know keeps its words (a test reads every built-in
//! scenario damaged at each place and finds no English left; the reasons a
//! setting is refused are in `settings`).

mod settings;

/// `why` (a reader's message) in Japanese.
pub(in crate::i18n) fn reading(why: &str) -> String {
    let mut out = String::new();
    let mut rest = why;
    // The place: "`nodes`: item 2: `roles`: item 1: …".
    loop {
        if let Some((n, r)) = rest
            .strip_prefix("item ")
            .and_then(|r| r.split_once(": "))
            .filter(|(n, _)| n.parse::<usize>().is_ok())
        {
            let gap = if out.is_empty() { "" } else { " " };
            out += &format!("{gap}{n} 番目の");
            rest = r;
        } else if let Some((name, r)) = rest
            .strip_prefix('`')
            .and_then(|r| r.split_once("`: "))
            .filter(|(name, _)| !name.contains('`'))
        {
            out += &format!("「{name}」の");
            rest = r;
        } else {
            break;
        }
    }
    if !out.is_empty() {
        // "「nodes」の 2 番目の「roles」の…：" reads as a place.
        out = format!("{}：", out.trim_end_matches('の'));
    }
    out + &complaint(rest)
}

/// One complaint, without its place.
fn complaint(c: &str) -> String {
    // Whole sentences first.
    const SAID: [(&str, &str); 5] = [
        ("the scenario has no nodes", "ノードがひとつもありません"),
        (
            "an event must be an object",
            "イベントはオブジェクトでなければなりません",
        ),
        ("the file has no scenario", "ファイルにシナリオがありません"),
        ("missing", "シナリオがありません"),
        (
            "the scenario was not checked before it was built",
            "シナリオが検査される前に組み立てられました",
        ),
    ];
    if let Some((_, ja)) = SAID.iter().find(|(en, _)| *en == c) {
        return ja.to_string();
    }
    // "…, expected W": what was found, and what is wanted.
    if let Some((head, want)) = c.split_once(", expected ") {
        let want = wanted(want);
        fn quoted(r: &str) -> Option<(&str, &str)> {
            r.strip_prefix('`')?.split_once('`')
        }
        if let Some((s, _)) = c.strip_prefix("unknown variant ").and_then(quoted) {
            return format!("「{s}」という種類はありません（使えるのは {want}）");
        }
        if let Some((s, _)) = c.strip_prefix("unknown field ").and_then(quoted) {
            return format!("「{s}」という項目はありません（使えるのは {want}）");
        }
        for (en, ja) in [
            ("invalid type", "型が違います"),
            ("invalid value", "値が範囲外です"),
        ] {
            let Some(r) = head.strip_prefix(en) else {
                continue;
            };
            let (name, v) = match r.strip_prefix(" for `").and_then(|r| r.split_once("`: ")) {
                Some((name, v)) => (format!("「{name}」の"), v),
                None => (String::new(), r.strip_prefix(": ").unwrap_or(r)),
            };
            return format!("{name}{ja}：{}ではなく、{want}が必要です", shown(v));
        }
        if let Some(n) = head.strip_prefix("invalid length ") {
            return format!("長さ {n} のリストです（{want}が必要です）");
        }
    }
    if let Some((s, _)) = c
        .strip_prefix("unknown field `")
        .and_then(|r| r.split_once("`, there are no fields"))
    {
        return format!("「{s}」という項目はありません（ここには項目がありません）");
    }
    if let Some(s) = c
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return format!("「{s}」がありません");
    }
    for (en, ja) in [
        ("unknown command ", "というコマンドはありません"),
        ("unknown fault ", "という障害はありません"),
        ("unknown fencing ", "というフェンシングはありません"),
    ] {
        let Some(r) = c.strip_prefix(en) else {
            continue;
        };
        let (name, want) = match r.split_once("; expected one of: ") {
            Some((name, want)) => (name, format!("（使えるのは {want}）")),
            None => (r, String::new()),
        };
        return format!("「{}」{ja}{want}", name.trim_matches(['`', '"']));
    }
    if let Some(v) = c.strip_prefix("`heal` has no fields, not ") {
        return format!(
            "「heal」は項目をとりません（{} が書かれています）",
            shown(v)
        );
    }
    if let Some((k, r)) = c
        .strip_prefix('`')
        .and_then(|r| r.split_once("` needs its fields: "))
    {
        return format!("「{k}」には項目が必要です：{r}");
    }
    if let Some(what) = c
        .strip_prefix("a ")
        .and_then(|r| r.strip_suffix(" needs a kind"))
    {
        return format!("{}には種類がひとつ必要です", thing(what));
    }
    if let Some((what, k)) = c
        .strip_prefix("a ")
        .and_then(|r| r.split_once(" has one kind; found a second key "))
    {
        return format!(
            "{}の種類はひとつです（二つめのキー {k} があります）",
            thing(what)
        );
    }
    for (en, ja) in [
        (" must be a whole number ≥ 0, found ", "0 以上の整数"),
        (" must be a short text, found ", "短い文字列"),
    ] {
        if let Some((k, v)) = c.split_once(en) {
            return match v {
                "missing" => format!("{k} がありません（{ja}が必要です）"),
                v => format!("{k} は{ja}でなければなりません（{} です）", shown(v)),
            };
        }
    }
    if let Some((what, r)) = c
        .strip_prefix("events out of order: ")
        .and_then(|r| r.split_once(' '))
    {
        if let Some((n, after)) = r.split_once(" comes after ") {
            return format!("イベントの順序が違います：「{what}」{n} が {after} のあとにあります");
        }
    }
    if let Some(r) = c.strip_prefix("the scenario has ") {
        if let Some((n, max)) = r
            .split_once(" nodes; at most ")
            .and_then(|(n, r)| Some((n, r.strip_suffix(" are supported")?)))
        {
            return format!("ノードが {n} 個あります（扱えるのは {max} 個まで）");
        }
    }
    if let Some((name, why)) = c
        .strip_prefix("node name ")
        .and_then(|r| r.split_once(" is not usable: "))
    {
        return format!("ノード名 {name} は使えません：{}", name_fault(why));
    }
    if let Some(name) = c
        .strip_prefix("node ")
        .and_then(|r| r.strip_suffix(" appears twice"))
    {
        return format!("ノード {name} が二度現れます");
    }
    if let Some((name, place)) = c
        .strip_prefix("unknown node ")
        .and_then(|r| r.split_once(" in "))
    {
        return format!("「{place}」に知らないノード {name} があります");
    }
    if let Some((section, kind)) = c
        .strip_prefix("the ")
        .and_then(|r| r.split_once(" section is missing for a "))
        .and_then(|(s, r)| Some((s, r.strip_suffix(" scenario")?)))
    {
        return format!("「{kind}」のシナリオに「{section}」の節がありません");
    }
    if let Some((m, kind)) = c
        .strip_prefix("mutation ")
        .and_then(|r| r.split_once(" does not apply to a "))
        .and_then(|(m, r)| Some((m, r.strip_suffix(" scenario")?)))
    {
        return format!("壊し方「{m}」は「{kind}」のシナリオには使えません");
    }
    if let Some(kind) = c
        .strip_prefix("the page has not yet loaded what runs a ")
        .and_then(|r| r.strip_suffix(" scenario; try again"))
    {
        return format!(
            "「{kind}」のシナリオを動かす部分がまだ読み込まれていません。もう一度お試しください"
        );
    }
    // A setting out of its range (`ScenarioError::BadSetting`, "lease.ttl_us:
    // …"): the field as the file names it, the reason in Japanese
    // (`settings`; one it does not know keeps its words).
    if let Some((field, reason)) = c
        .split_once(": ")
        .filter(|(f, _)| !f.is_empty() && !f.contains([' ', '`', '"']))
    {
        let reason = settings::reason(reason).unwrap_or_else(|| reason.to_string());
        return format!("設定「{field}」が使えません：{reason}");
    }
    c.to_string()
}

/// What was wanted: "one of `a`, `b`", "u64", "a boolean" ….
fn wanted(w: &str) -> String {
    const TYPES: [(&str, &str); 15] = [
        ("u64", "0 以上の整数"),
        ("u32", "0 以上の整数（4294967295 まで）"),
        ("u16", "0 以上の整数（65535 まで）"),
        ("u8", "0 以上の整数（255 まで）"),
        ("usize", "0 以上の整数"),
        ("i64", "整数"),
        ("f64", "数"),
        ("a boolean", "true か false"),
        ("a string", "文字列"),
        ("a list", "リスト"),
        ("a pair", "2 つ組のリスト"),
        ("a name", "名前（文字列）"),
        ("an object", "オブジェクト"),
        ("a fault", "障害"),
        ("there are no fields", "項目なし"),
    ];
    if let Some((_, ja)) = TYPES.iter().find(|(en, _)| *en == w) {
        return ja.to_string();
    }
    if let Some(list) = w.strip_prefix("one of ") {
        return format!("{list} のどれか");
    }
    if let Some(tag) = w
        .strip_prefix("an object with ")
        .map(|t| t.trim_matches('`'))
    {
        return format!("「{tag}」のあるオブジェクト");
    }
    if let Some(tag) = w
        .strip_prefix('`')
        .and_then(|r| r.strip_suffix("` to be a name"))
    {
        return format!("名前（文字列）の「{tag}」");
    }
    for (en, ja) in [
        ("a fault or command, one of: ", "障害かコマンド"),
        ("a command, one of: ", "コマンド"),
    ] {
        if let Some(list) = w.strip_prefix(en) {
            return format!("{ja}（使えるのは {list}）");
        }
    }
    w.to_string()
}

/// A value as the readers show it: "integer `3`", "string \"x\"" ….
fn shown(v: &str) -> String {
    const KINDS: [(&str, &str); 4] = [
        ("boolean ", "真偽値 "),
        ("floating point ", "小数 "),
        ("integer ", "整数 "),
        ("string ", "文字列 "),
    ];
    for (en, ja) in KINDS {
        if let Some(r) = v.strip_prefix(en) {
            return format!("{ja}{r}");
        }
    }
    match v {
        "null" => "「null」".into(),
        "a sequence" => "リスト".into(),
        "a map" => "オブジェクト".into(),
        "missing" => "書かれていません".into(),
        _ => v.to_string(),
    }
}

/// "a fault", "a command" in "a … needs a kind".
fn thing(what: &str) -> &str {
    match what {
        "fault" => "障害",
        "command" => "コマンド",
        other => other,
    }
}

/// Why a node's name cannot be used (`scenario::names::check_name`).
fn name_fault(why: &str) -> &str {
    match why {
        "it is empty" => "空です",
        "it is longer than 16 characters" => "16 文字より長すぎます",
        "it starts or ends with a space" => "空白で始まるか終わっています",
        "it contains a control character, a quote, <, >, & or a backslash" => {
            "制御文字、引用符、<、>、&、バックスラッシュのどれかを含んでいます"
        }
        "\"net\" is reserved for the network" => "「net」はネットワークのための名前です",
        other => other,
    }
}

#[cfg(test)]
mod tests;
