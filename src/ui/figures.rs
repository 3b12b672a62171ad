//! The lessons' figures, drawn as SVG from the step's labels (so they speak
//! the page's language) — labels are escaped; a missing one is blank — and
//! one that is a table of measured runs.

use crate::float::{coord, fixed};
use crate::scenario::lessons::Figure;
use crate::trace::svg::escape;
use leptos::prelude::*;

fn l(labels: &[&str], i: usize) -> String {
    escape(raw(labels, i))
}

fn raw<'a>(labels: &[&'a str], i: usize) -> &'a str {
    labels.get(i).copied().unwrap_or_default()
}

/// About how wide `c` is at font size 1 (no fonts are measured here: the
/// page's CJK fonts set kana and kanji full width, Latin at about half).
fn char_w(c: char) -> f64 {
    match c {
        ' ' | 'i' | 'l' | 'I' | '.' | ',' | ':' | '|' | '\'' | '(' | ')' => 0.3,
        c if c.is_ascii_uppercase() || c == 'm' || c == 'w' || c == '—' => 0.8,
        c if c.is_ascii() => 0.56,
        'α'..='ω' | 'Α'..='Ω' | '−' | '→' => 0.65,
        _ => 1.0,
    }
}

fn text_w(s: &str, size: f64) -> f64 {
    s.chars().map(char_w).sum::<f64>() * size
}

/// `text` broken into at most two lines no wider than `width` at font
/// `size`, shrinking the font until it fits: Latin breaks between words,
/// Japanese between any two characters (after "：" or "・" by preference).
pub fn fit(text: &str, width: f64, mut size: f64) -> (Vec<String>, f64) {
    // Units that may not be split: a Latin word with its trailing space, or
    // one CJK character.
    let mut units: Vec<String> = Vec::new();
    for c in text.chars() {
        let wide = char_w(c) >= 1.0;
        match units.last_mut() {
            Some(u)
                if !wide
                    && !u.ends_with(' ')
                    && u.chars().last().is_some_and(|p| char_w(p) < 1.0) =>
            {
                u.push(c)
            }
            _ => units.push(c.to_string()),
        }
    }
    loop {
        if text_w(text, size) <= width {
            return (vec![text.to_string()], size);
        }
        // A break after Japanese punctuation (or before a bracket) if one
        // fits, so that a word is not cut; else the break that leaves the
        // longer line shortest.
        let cuts: Vec<(f64, String, String, bool)> = (1..units.len())
            .map(|k| {
                let (a, b): (String, String) = (units[..k].concat(), units[k..].concat());
                let w = text_w(a.trim_end(), size).max(text_w(b.trim(), size));
                let nice = a.ends_with(['：', '、', '。', '・', ' ']) || b.starts_with('（');
                (w, a.trim_end().to_string(), b.trim().to_string(), nice)
            })
            .collect();
        // Down to 12 px a smaller font is better than a cut word.
        let nice = cuts
            .iter()
            .filter(|c| c.3 && c.0 <= width)
            .min_by(|x, y| x.0.total_cmp(&y.0));
        let any = || cuts.iter().min_by(|x, y| x.0.total_cmp(&y.0));
        let best = if nice.is_some() || size <= 12.0 {
            nice.or_else(any)
        } else {
            None
        }
        .map(|c| (c.0, c.1.clone(), c.2.clone()));
        if best.is_none() && size > 12.0 && !cuts.is_empty() {
            size -= 0.5;
            continue;
        }
        if let Some((w, a, b)) = best {
            if w <= width || size <= 10.0 {
                return (vec![a, b], size);
            }
        } else if size <= 10.0 {
            return (vec![text.to_string()], size);
        }
        size -= 0.5;
    }
}

/// A box with its label centred inside it, on one or two lines.
fn boxed(x: f64, y: f64, w: f64, h: f64, text: &str, class: &str) -> String {
    let (lines, size) = fit(text, w - 14.0, 15.0);
    let lh = size * 1.2;
    let top = y + h / 2.0 - lh * (lines.len() as f64 - 1.0) / 2.0 + size * 0.35;
    let spans: String = lines
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                r#"<tspan x="{}" y="{}">{}</tspan>"#,
                coord(x + w / 2.0),
                fixed(top + i as f64 * lh, 1),
                escape(t)
            )
        })
        .collect();
    let (x, y, w, h, size) = (coord(x), coord(y), coord(w), coord(h), coord(size));
    format!(
        r#"<g class="fig-boxed"><rect class="{class}" x="{x}" y="{y}" width="{w}" height="{h}" rx="8"/><text class="fig-text" text-anchor="middle" style="font-size:{size}px">{spans}</text></g>"#
    )
}

fn arrow(x1: f64, y1: f64, x2: f64, y2: f64, class: &str, label: &str) -> String {
    let (mx, my) = (coord((x1 + x2) / 2.0), coord((y1 + y2) / 2.0 - 6.0));
    let (x1, y1, x2, y2) = (coord(x1), coord(y1), coord(x2), coord(y2));
    format!(
        r#"<line class="{class}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" marker-end="url(#fig-head)"/><text class="fig-small" x="{}" y="{}" text-anchor="middle">{label}</text>"#,
        mx, my
    )
}

const DEFS: &str = r##"<defs><marker id="fig-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#1d1d1f"/></marker></defs>"##;

fn progression(t: &[&str]) -> String {
    let mut s = String::from(DEFS);
    for i in 0..5 {
        s += &boxed(
            10.0 + i as f64 * 196.0,
            14.0,
            150.0,
            68.0,
            raw(t, i),
            "fig-box",
        );
    }
    for i in 0..4 {
        let x = 160.0 + i as f64 * 196.0;
        s += &arrow(x, 48.0, x + 46.0, 48.0, "fig-line", "");
        s += &format!(
            r#"<text class="fig-small loss" x="{}" y="110" text-anchor="middle">− {}</text>"#,
            coord(x + 23.0),
            l(t, 5 + i)
        );
        s += &format!(
            r#"<text class="fig-small gain" x="{}" y="134" text-anchor="middle">+ {}</text>"#,
            coord(x + 23.0),
            l(t, 9 + i)
        );
    }
    s += &format!(
        r#"<text class="fig-note" x="10" y="170">{}</text>"#,
        l(t, 13)
    );
    format!(r#"<svg viewBox="0 0 990 185" class="figure">{s}</svg>"#)
}

fn lease_loop(t: &[&str]) -> String {
    let mut s = String::from(DEFS);
    s += &format!(
        r#"<text class="fig-title" x="20" y="26">{}</text>"#,
        l(t, 0)
    );
    s += &boxed(20.0, 40.0, 200.0, 46.0, raw(t, 1), "fig-box good");
    s += &boxed(20.0, 110.0, 200.0, 46.0, raw(t, 2), "fig-box good");
    s += &boxed(20.0, 180.0, 200.0, 46.0, raw(t, 3), "fig-box good");
    s += &arrow(120.0, 86.0, 120.0, 108.0, "fig-line", "");
    s += &arrow(120.0, 156.0, 120.0, 178.0, "fig-line", "");
    s += r#"<path class="fig-line" d="M220 203 C 280 203, 280 63, 222 63" marker-end="url(#fig-head)" fill="none"/>"#;
    s += &format!(
        r#"<text class="fig-title bad" x="520" y="26">{}</text>"#,
        l(t, 4)
    );
    s += &boxed(520.0, 40.0, 220.0, 46.0, raw(t, 5), "fig-box llm");
    s += &boxed(520.0, 110.0, 220.0, 46.0, raw(t, 6), "fig-box llm wait");
    s += &boxed(520.0, 180.0, 220.0, 46.0, raw(t, 7), "fig-box bad");
    s += &arrow(630.0, 86.0, 630.0, 108.0, "fig-line", "");
    s += &arrow(630.0, 156.0, 630.0, 178.0, "fig-line", "");
    s += &format!(
        r#"<text class="fig-note bad" x="760" y="140">{}</text>"#,
        l(t, 8)
    );
    format!(r#"<svg viewBox="0 0 1000 240" class="figure">{s}</svg>"#)
}

#[component]
pub fn FigureView(figure: Figure, labels: &'static [&'static str]) -> impl IntoView {
    if figure == Figure::Island {
        let rows = labels
            .chunks(2)
            .map(|p| view! { <tr><td>{p[0]}</td><td class="arrow">"↔"</td><td>{p.get(1).copied().unwrap_or_default()}</td></tr> })
            .collect_view();
        return view! { <table class="figure island" data-testid="figure"><tbody>{rows}</tbody></table> }.into_any();
    }
    if figure == Figure::CommitCosts {
        // Not a drawing: calm runs, measured, beside the formulas.
        return view! { <div class="figure-box" data-testid="figure"><super::commit::table::PaperTable rms=5 f=1 /></div> }.into_any();
    }
    let svg = match figure {
        Figure::Progression => progression(labels),
        Figure::LeaseLoop => lease_loop(labels),
        Figure::Island | Figure::CommitCosts => unreachable!(),
    };
    view! { <div class="figure-box" data-testid="figure" inner_html=svg></div> }.into_any()
}
