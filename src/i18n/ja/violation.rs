//! A broken invariant's detail, in Japanese.
//!
//! The monitors write the detail once, in English, into the trace (it is
//! part of the trace format and of the golden hashes). The Japanese
//! narration says the same facts: it reads the detail back with the
//! patterns below — one per sentence a monitor writes — and fills the
//! Japanese sentence with the same names, decrees, ballots, epochs and
//! times. A detail no pattern knows (a trace from another version) is
//! `None`, and the narration falls back to what the invariant means;
//! `tests` runs every built-in scenario under every mutation and checks
//! that no detail is left untranslated.

/// Match `text` against `pattern`, whose `{}` are the captures: each one
/// runs up to the first occurrence of the literal that follows it (the last
/// one to the end).
fn captures<'a>(text: &'a str, pattern: &str) -> Option<Vec<&'a str>> {
    let mut parts = pattern.split("{}");
    let first = parts.next().unwrap_or_default();
    let mut rest = text.strip_prefix(first)?;
    let mut out = Vec::new();
    let literals: Vec<&str> = parts.collect();
    for (i, lit) in literals.iter().enumerate() {
        let last = i + 1 == literals.len();
        if last && lit.is_empty() {
            out.push(rest);
            rest = "";
        } else if last {
            let v = rest.strip_suffix(lit)?;
            out.push(v);
            rest = "";
        } else {
            let at = rest.find(lit)?;
            out.push(&rest[..at]);
            rest = &rest[at + lit.len()..];
        }
    }
    (rest.is_empty() && out.iter().all(|c| !c.is_empty())).then_some(out)
}

/// "1.234 s" → "1.234 秒" (the units `human_us` writes).
fn duration(en: &str) -> String {
    if let Some((m, s)) = en.split_once(" min ") {
        return format!("{m} 分 {} 秒", s.trim_end_matches(" s"));
    }
    for (unit, ja) in [(" µs", " マイクロ秒"), (" ms", " ミリ秒"), (" s", " 秒")] {
        if let Some(n) = en.strip_suffix(unit) {
            return format!("{n}{ja}");
        }
    }
    en.to_string()
}

fn list<'a>(
    text: &'a str,
    sep: &str,
    item: impl Fn(&'a str) -> Option<String>,
) -> Option<Vec<String>> {
    text.split(sep).map(item).collect()
}

/// The Japanese for one detail a monitor wrote, if it is one of theirs.
pub fn detail(en: &str) -> Option<String> {
    let c = |p: &str| captures(en, p);
    // Paxos (`check::paxos_monitor`).
    if let Some(items) = en.strip_prefix("two decrees passed: ") {
        let items = list(items, " and ", |i| {
            captures(i, "{} in ballot {}").map(|v| format!("投票 {} の {}", v[1], v[0]))
        })?;
        return Some(format!(
            "二つの法令が可決されました（{}）",
            items.join("、")
        ));
    }
    if let Some(v) = c("2a of ballot {} carries {}, which nobody proposed") {
        return Some(format!(
            "投票 {} の 2a が、誰も提案していない {} を運んでいます",
            v[0], v[1]
        ));
    }
    if let Some(v) = c("ballot {} carries {} and also {} (in a {})") {
        return Some(format!(
            "投票 {} が {} と {} の両方を運んでいます（{} で）",
            v[0], v[1], v[2], v[3]
        ));
    }
    if let Some(v) = c("{} votes in ballot {} although it promised {}") {
        return Some(format!(
            "{} は投票 {} を約束したのに、投票 {} で賛成しています",
            v[0], v[2], v[1]
        ));
    }
    if let Some(v) = c("{} learns {} (ballot {}), but no majority voted for it") {
        return Some(format!(
            "{} が {}（投票 {}）を学びましたが、過半数はそれに賛成していません",
            v[0], v[1], v[2]
        ));
    }
    if let Some(v) = c("{} learns {} but {} learned {}") {
        return Some(format!(
            "{} は {} を学びましたが、{} は {} を学んでいます",
            v[0], v[1], v[2], v[3]
        ));
    }
    if let Some(v) = c("{} has {} in its ledger and is told {} passed") {
        return Some(format!(
            "{} の台帳には {} とあるのに、{} が可決されたと告げられます",
            v[0], v[1], v[2]
        ));
    }
    if let Some(v) = c("{}'s last vote {} is above its promise {}") {
        return Some(format!(
            "{} の最後の賛成票 {} が、約束 {} を上回っています",
            v[0], v[1], v[2]
        ));
    }
    if let Some(v) = c("{}'s promise went down from {} to {}") {
        let to = if v[2] == "nothing" { "なし" } else { v[2] };
        return Some(format!(
            "{} の約束が {} から {} に下がりました",
            v[0], v[1], to
        ));
    }
    // The lease lab (`check::lease_monitor`).
    if let Some(v) = c("{} accepted {}'s write with epoch {}, but {}") {
        let why = if let Some(w) = captures(v[3], "it had expired at {} on the store's clock") {
            format!(
                "そのリースはストアの時計で {} に切れていました",
                duration(w[0])
            )
        } else if let Some(w) = captures(v[3], "the live lease was {}'s epoch {}") {
            format!("有効なリースは {} のエポック {} でした", w[0], w[1])
        } else if v[3] == "no lease had been granted" {
            "リースはまだ誰にも与えられていませんでした".to_string()
        } else {
            return None;
        };
        return Some(format!(
            "{} が {} のエポック {} の書き込みを受け付けましたが、{}",
            v[0], v[1], v[2], why
        ));
    }
    if let Some(v) =
        c("the store gave the lease to {} while {}'s grant (epoch {}) was still unexpired")
    {
        return Some(format!(
            "{} の付与（エポック {}）がまだ有効なのに、ストアが {} にリースを与えました",
            v[1], v[2], v[0]
        ));
    }
    if let Some(v) = c("the lease passed from {} to {} but the epoch stayed at {}") {
        return Some(format!(
            "リースが {} から {} に移ったのに、エポックは {} のままです",
            v[0], v[1], v[2]
        ));
    }
    if let Some(v) = c("epoch {} was given to {} and to {}") {
        return Some(format!(
            "エポック {} が {} にも {} にも与えられました",
            v[0], v[1], v[2]
        ));
    }
    if let Some(v) =
        c("{} accepted epoch {} from {} after epoch {} — a stale write overwrote newer data")
    {
        return Some(format!(
            "{} がエポック {} の後に {} からエポック {} を受け付けました。古い書き込みが新しいデータを上書きしています",
            v[0], v[3], v[2], v[1]
        ));
    }
    // Transaction commit (`check::commit_monitor`).
    if let Some(v) = c("{}'s instance chose {} in ballot {} and {} in ballot {}") {
        let vote = |w: &str| match w {
            "prepared" => "「準備完了」",
            "aborted" => "「中止」",
            _ => "?",
        };
        return Some(format!(
            "{} のインスタンスが投票 {} で{}を、投票 {} で{}を選びました",
            v[0],
            v[2],
            vote(v[1]),
            v[4],
            vote(v[3])
        ));
    }
    if let Some(v) = c("{} committed and {} aborted") {
        return Some(format!(
            "{} はコミットし、{} はアボートしました",
            v[0], v[1]
        ));
    }
    if let Some(v) = c("{}, but {}") {
        let who = captures(v[0], "{} commits")
            .map(|w| format!("{} がコミットします", w[0]))
            .or_else(|| {
                captures(v[0], "{} decides Commit")
                    .map(|w| format!("{} がコミットと決めます", w[0]))
            });
        let missing = list(v[1], ", ", |m| {
            captures(m, "{} voted aborted")
                .map(|w| format!("{} は「中止」に投票しました", w[0]))
                .or_else(|| {
                    captures(m, "{} never voted").map(|w| format!("{} は投票していません", w[0]))
                })
        });
        if let (Some(who), Some(missing)) = (who, missing) {
            return Some(format!("{}。しかし {}", who, missing.join("、")));
        }
    }
    // Multi-Paxos (`check::multipaxos_monitor`).
    if let Some(v) = c("slot {} is proposed {}, which no client asked for") {
        return Some(format!(
            "スロット {} に、どのクライアントも頼んでいない {} が提案されています",
            v[0], v[1]
        ));
    }
    if let Some(v) = c("slot {}: {} was chosen, and now {} in ballot {} by a majority") {
        return Some(format!(
            "スロット {}：{} が選ばれていたのに、今度は投票 {} で {} が過半数に選ばれました",
            v[0], v[1], v[3], v[2]
        ));
    }
    if let Some(v) = c("{} applied {} at slot {}, {} applied {}") {
        return Some(format!(
            "スロット {} で、{} は {} を、{} は {} を適用しました",
            v[2], v[0], v[1], v[3], v[4]
        ));
    }
    if let Some(v) = c("{} believes it holds the master lease while {} still does (until {})") {
        return Some(format!(
            "{} がマスターリースを持っていると信じていますが、{} もまだ持っています（{} まで）",
            v[0],
            v[1],
            duration(v[2])
        ));
    }
    if let Some(v) =
        c("{} accepted a write under lock {} with generation {} after one with generation {}")
    {
        return Some(format!(
            "{} がロック {} の世代 {} の書き込みを、世代 {} の書き込みのあとに受け付けました",
            v[0], v[1], v[2], v[3]
        ));
    }
    if let Some(v) = c("{} read {} as written in slot {}, but slot {} had written it and answered at {}, before the read began at {}") {
        return Some(format!(
            "{} は {} をスロット {} の値として読みましたが、スロット {} がそれを書いて {} に応答済みでした。読み出しが始まった {} より前です",
            v[0],
            v[1],
            v[2],
            v[3],
            duration(v[4]),
            duration(v[5])
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;
    use crate::scenario::run::Run;
    use crate::trace::EventKind;

    #[test]
    fn patterns() {
        assert_eq!(
            captures(
                "Α votes in ballot (1,Β) although it promised (2,Γ)",
                "{} votes in ballot {} although it promised {}"
            )
            .unwrap(),
            ["Α", "(1,Β)", "(2,Γ)"]
        );
        assert_eq!(captures("x", "{} votes"), None);
        assert_eq!(duration("4.010 s"), "4.010 秒");
        assert_eq!(duration("12.5 ms"), "12.5 ミリ秒");
        assert_eq!(duration("2 min 05 s"), "2 分 05 秒");
        assert_eq!(
            detail("two decrees passed: α in ballot (1,Α) and γ in ballot (2,Γ)").unwrap(),
            "二つの法令が可決されました（投票 (1,Α) の α、投票 (2,Γ) の γ）"
        );
        assert_eq!(
            detail("order-1 accepted W1's write with epoch 33, but it had expired at 4.010 s on the store's clock").unwrap(),
            "order-1 が W1 のエポック 33 の書き込みを受け付けましたが、そのリースはストアの時計で 4.010 秒 に切れていました"
        );
        assert_eq!(
            detail("RM1 decides Commit, but RM3 voted aborted, RM4 never voted").unwrap(),
            "RM1 がコミットと決めます。しかし RM3 は「中止」に投票しました、RM4 は投票していません"
        );
        assert_eq!(
            detail("RM2 committed and RM3 aborted").unwrap(),
            "RM2 はコミットし、RM3 はアボートしました"
        );
        assert_eq!(
            detail("RM2's instance chose prepared in ballot 0 and aborted in ballot (1,RM2)")
                .unwrap(),
            "RM2 のインスタンスが投票 0 で「準備完了」を、投票 (1,RM2) で「中止」を選びました"
        );
        assert_eq!(
            detail("F accepted a write under lock 0 with generation 1 after one with generation 2")
                .unwrap(),
            "F がロック 0 の世代 1 の書き込みを、世代 2 の書き込みのあとに受け付けました"
        );
        assert_eq!(detail("something new"), None);
    }

    /// Every violation a built-in scenario shows, under every mutation of its
    /// protocol, reads in Japanese.
    #[test]
    fn every_detail_the_monitors_write_reads_in_japanese() {
        let mut seen = 0;
        for name in builtin::names() {
            let base = builtin::get(name).unwrap();
            let mut runs = vec![base.clone()];
            for m in crate::check::Mutation::of(base.protocol) {
                let mut s = base.clone();
                s.mutation = Some(m);
                runs.push(s);
            }
            for s in runs {
                let Ok(run) = Run::record(&s) else { continue };
                for e in &run.trace {
                    if let EventKind::Violation { detail: d, .. } = &e.kind {
                        seen += 1;
                        let ja = detail(d).unwrap_or_else(|| {
                            panic!("{name} {:?}: no Japanese for {d:?}", s.mutation)
                        });
                        assert!(!ja.contains(" the ") && !ja.contains(" but "), "{ja}");
                    }
                }
            }
        }
        assert!(seen > 10, "only {seen} violations seen");
    }
}
