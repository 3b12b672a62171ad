//! Render a space-time [`Diagram`] as a standalone SVG file: for a report,
//! a slide or a bug, with no app needed to view it.
//!
//! All geometry comes from `viz::spacetime`; this module only picks colours
//! and writes markup. Colours follow the app's colour-blind-safe palette
//! (Okabe–Ito), but never carry meaning alone: every arrow is labelled with
//! its phase and ballot, and a messenger that did not arrive is dashed, ends
//! in a ✕ and says why in words. Every piece of text — node names and decree
//! values are user strings — goes through [`escape`].

use crate::float::{fixed, Fixed};
use crate::trace::label::NoteClass;
use crate::viz::spacetime::{Arrow, Diagram, Fate, NetSpan, Rect, Span, SpanKind};
use std::fmt::Write;

/// Losses, rejections and violations.
pub const VERMILLION: &str = "#D55E00";

/// The colour of a message type (the trace's `type`).
pub fn colour(msg_type: &str) -> &'static str {
    match msg_type {
        "prepare" => "#0072B2",
        "promise" => "#56B4E9",
        "accept" => "#E69F00",
        "accepted" => "#009E73",
        "decided" => "#000000",
        "llm_ask" | "llm_answer" => "#CC79A7",
        // Transaction commit: 2PC's messages in the colours of the Paxos
        // phases they correspond to (2PC is Paxos Commit with F = 0).
        "phase1a" => "#0072B2",
        "phase1b" => "#56B4E9",
        "prepared" | "phase2a" => "#E69F00",
        "phase2b" => "#009E73",
        "commit" => "#000000",
        "aborted" | "abort" => VERMILLION,
        _ => "#555555", // the lease lab's plumbing: acquire, write and replies
    }
}

/// Every colour an arrowhead may need, in a fixed order (marker ids).
const HEADS: [&str; 8] = [
    "#0072B2", "#56B4E9", "#E69F00", "#009E73", "#000000", "#CC79A7", "#555555", VERMILLION,
];

/// Escape text for XML content and attribute values, and drop characters
/// XML 1.0 forbids (a control character would make the file unreadable).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// One decimal, as `{:.1}` prints it (without core's float formatter).
fn f1(x: f64) -> Fixed {
    fixed(x, 1)
}

fn n(x: f64) -> String {
    // One decimal is plenty for pixels, and keeps files small and stable.
    f1(if x.is_finite() { x } else { 0.0 }).to_string()
}

/// The whole SVG document, titled `title`.
pub fn render(d: &Diagram, title: &str) -> String {
    render_with(d, title, true, true, DiagramWords::ENGLISH, Layer::All)
}

/// About how wide a word is drawn at `size` px in sans-serif, erring wide:
/// a Latin letter 0.58 of the size, a Greek one 0.7 (a Japanese page's font
/// draws α wider), a sign such as ✕ or →, a kana or a kanji a whole size.
fn label_width(label: &str, size: f64) -> f64 {
    let em: f64 = label
        .chars()
        .map(|c| match c {
            '\u{370}'..='\u{3FF}' => 0.7,
            c if c >= '\u{2000}' => 1.0,
            _ => 0.58,
        })
        .sum();
    em * size
}

/// A word's box (x from, x to, y top, y bottom) at `size` px as the browser
/// lays its line out, erring tall: 1.2 of the size above the baseline (a
/// Japanese font's ascent) and 0.3 below. `x` is its anchor: where it starts,
/// or with `end` (`text-anchor="end"`) where it ends.
pub fn word_box(x: f64, base: f64, text: &str, size: f64, end: bool) -> [f64; 4] {
    let w = label_width(text, size);
    let left = if end { x - w } else { x };
    [left, left + w, base - 1.2 * size, base + 0.3 * size]
}

/// Where a partition's word starts: along the plot's foot.
fn cut_word_at(c: &NetSpan, p: Rect) -> (f64, f64) {
    (c.x1 + 2.0, p.y + p.h - 3.0)
}

/// Where a crashed or paused lane's word starts (over its band), and the word.
fn span_word_at<'a>(sp: &Span, lane_h: f64, words: DiagramWords<'a>) -> (f64, f64, &'a str) {
    let word = match sp.kind {
        SpanKind::Crashed => words.crashed,
        SpanKind::Paused => words.paused,
    };
    (sp.x1 + 2.0, sp.y - lane_h * 0.3 - 2.0, word)
}

/// The diagram's own words: on a crashed or paused lane, and after a
/// message's label for what became of it.
#[derive(Clone, Copy, Debug)]
pub struct DiagramWords<'a> {
    pub crashed: &'a str,
    pub paused: &'a str,
    pub duplicate: &'a str,
    pub in_flight: &'a str,
    pub lost: &'a str,
    pub partitioned: &'a str,
    pub receiver_down: &'a str,
}

impl DiagramWords<'static> {
    /// An export's words (the trace formats are English).
    pub const ENGLISH: Self = DiagramWords {
        crashed: "crashed",
        paused: "paused",
        duplicate: "(duplicate)",
        in_flight: "… in flight",
        lost: "lost",
        partitioned: "partition",
        receiver_down: "receiver down",
    };
}

/// For the page's live diagram, in the page's language: when arrows are
/// dense their labels are unreadable anyway, and leaving them out keeps a
/// redraw cheap.
pub fn render_live(d: &Diagram, title: &str, words: DiagramWords) -> String {
    // The page says what was left out in its own words ("+N …"), in its
    // language; the export's English footnote stays out of it.
    render_with(d, title, d.arrows.len() <= 60, false, words, Layer::All)
}

/// A diagram in two layers, for a page whose cursor moves through a run that
/// has been laid out up to the cursor: the settled past — all but the
/// messages still in flight and the spans still open — drawn again only when
/// an event passes; and, over it, those that move with the cursor, drawn
/// with every step of it (a few elements). The second is a bare `<svg>` of
/// the same size: its arrowheads, hatching and clip are the first one's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layer {
    All,
    Settled,
    Moving,
}

impl Layer {
    fn arrow(self, a: &Arrow) -> bool {
        match self {
            Layer::All => true,
            Layer::Settled => a.fate != Fate::InFlight,
            Layer::Moving => a.fate == Fate::InFlight,
        }
    }

    fn span(self, open: bool) -> bool {
        match self {
            Layer::All => true,
            Layer::Settled => !open,
            Layer::Moving => open,
        }
    }
}

/// One layer of the page's live diagram (`render_live`); `labels`: whether
/// the arrows carry their words (the settled layer and the moving one must
/// agree: decide it from both layers' arrows together).
pub fn render_layer(
    d: &Diagram,
    title: &str,
    labels: bool,
    words: DiagramWords,
    layer: Layer,
) -> String {
    render_with(d, title, labels, false, words, layer)
}

fn render_with(
    d: &Diagram,
    title: &str,
    labels: bool,
    footnote: bool,
    words: DiagramWords,
    layer: Layer,
) -> String {
    if layer == Layer::Moving {
        return moving_layer(d, labels, words);
    }
    let mut s = String::with_capacity(4096 + d.arrows.len() * 300);
    let p = d.plot;
    let _ = write!(
        s,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="10">
<title>{t}</title>
<defs>
<clipPath id="plot"><rect x="{px}" y="0" width="{pw}" height="{h}"/></clipPath>
<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#888" stroke-width="2"/></pattern>
"##,
        w = n(d.width),
        h = n(d.height),
        t = escape(title),
        px = n(p.x),
        pw = n(p.w),
    );
    for (i, c) in HEADS.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<marker id="head{i}" viewBox="0 0 8 6" refX="8" refY="3" markerWidth="8" markerHeight="6" orient="auto"><path d="M0,0 L8,3 L0,6 z" fill="{c}"/></marker>"#
        );
    }
    s.push_str("</defs>\n");
    let _ = writeln!(
        s,
        r##"<rect width="{}" height="{}" fill="#ffffff"/>"##,
        n(d.width),
        n(d.height)
    );

    // Time axis.
    s.push_str("<g class=\"ticks\" stroke=\"#dddddd\">\n");
    for t in &d.ticks {
        let _ = writeln!(
            s,
            r##"<line x1="{x}" y1="{y1}" x2="{x}" y2="{y2}"/><text x="{x}" y="{ty}" text-anchor="middle" stroke="none" fill="#666666">{l}</text>"##,
            x = n(t.x),
            y1 = n(p.y - 4.0),
            y2 = n(p.y + p.h),
            ty = n(p.y - 8.0),
            l = escape(&t.label)
        );
    }
    s.push_str("</g>\n");

    // Where every word stands, decided for the whole drawing at once.
    let places = Places::of(d, labels, footnote, words);
    spans(&mut s, d, words, layer);

    // Lanes with their names.
    s.push_str("<g class=\"lanes\">\n");
    for l in &d.lanes {
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#999999"/><text x="{}" y="{}" text-anchor="end" font-size="12" fill="#000000">{}</text>"##,
            n(p.x),
            n(p.x + p.w),
            n(p.x - 6.0),
            n(l.y + 4.0),
            escape(&l.name),
            y = n(l.y),
        );
    }
    s.push_str("</g>\n");

    arrows(&mut s, d, labels, words, layer, &places.arrows);

    s.push_str("<g class=\"markers\">\n");
    // Each label where `Places` put it (or only in its mark's title).
    for (m, place) in d.markers.iter().zip(&places.marks) {
        let c = match m.class {
            NoteClass::Chosen => "#000000",
            NoteClass::Learned => "#009E73",
            NoteClass::Lease => "#555555",
            NoteClass::Info => "#0072B2",
            NoteClass::Rejected | NoteClass::Violation => VERMILLION,
        };
        // A shape per class as well as a colour: ◆ violation, ■ chosen, ● others.
        let shape = match m.class {
            NoteClass::Violation | NoteClass::Rejected => format!(
                r#"<path d="M{x},{y0} L{x1},{y} L{x},{y1} L{x0},{y} z" fill="{c}"/>"#,
                x = n(m.x),
                y = n(m.y),
                x0 = n(m.x - 5.0),
                x1 = n(m.x + 5.0),
                y0 = n(m.y - 5.0),
                y1 = n(m.y + 5.0)
            ),
            NoteClass::Chosen => format!(
                r#"<rect x="{}" y="{}" width="8" height="8" fill="{c}"/>"#,
                n(m.x - 4.0),
                n(m.y - 4.0)
            ),
            _ => format!(
                r#"<circle cx="{}" cy="{}" r="3.5" fill="{c}"/>"#,
                n(m.x),
                n(m.y)
            ),
        };
        let text = match place {
            Some(w) => format!(
                r#"<text x="{}" y="{}" fill="{c}"{}>{l}</text>"#,
                n(w.x),
                n(w.y),
                w.anchor(),
                l = escape(&m.label),
            ),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            r#"<g class="marker {cls}">{shape}{text}<title>{l}</title></g>"#,
            cls = m.class.as_str(),
            l = escape(&m.label),
        );
    }
    s.push_str("</g>\n");

    if let Some(note) = footnote.then(|| omitted_note(d)).flatten() {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="end" fill="#333333">{}</text>"##,
            n(d.width - 4.0),
            n(d.height - 2.0),
            note
        );
    }
    s.push_str("</svg>\n");
    s
}

/// An export's footnote of what was left out, if anything was.
fn omitted_note(d: &Diagram) -> Option<String> {
    (d.omitted_arrows > 0 || d.omitted_markers > 0).then(|| {
        format!(
            "{} messages and {} marks left out: choose a shorter window",
            d.omitted_arrows, d.omitted_markers
        )
    })
}

/// Where a word is written: its anchor point, and whether it runs leftwards
/// from it (`text-anchor="end"`).
#[derive(Clone, Copy, Debug)]
struct Word {
    x: f64,
    y: f64,
    end: bool,
}

impl Word {
    fn anchor(self) -> &'static str {
        if self.end {
            r#" text-anchor="end""#
        } else {
            ""
        }
    }
}

/// Where each mark's and each arrow's word stands, decided for the whole
/// drawing at once, so that the page's two layers (`Layer`) agree. Words
/// never cover each other: first the spans' words (fixed), then the marks'
/// labels (under their lane's line, or over it), then the arrows' — those
/// that settled in sending order, then those in flight — at the first free
/// place along the arrow (its middle, then nearer either end), running
/// leftwards where rightwards would leave the plot. A word with no free
/// place is left out; its mark or arrow keeps it as a title. (Where many
/// messengers cross at once — four "Prepared ✕ receiver down" in a commit
/// run — one word is readable and four on top of each other are not.)
struct Places {
    marks: Vec<Option<Word>>,
    arrows: Vec<Option<Word>>,
}

impl Places {
    fn of(d: &Diagram, labels: bool, footnote: bool, words: DiagramWords) -> Places {
        let p = d.plot;
        let lane_h = p.h / d.lanes.len().max(1) as f64;
        // Where words already stand: x from, x to, y top, y bottom.
        let mut taken: Vec<[f64; 4]> = Vec::new();
        if let Some(note) = footnote.then(|| omitted_note(d)).flatten() {
            taken.push(word_box(d.width - 4.0, d.height - 2.0, &note, 10.0, true));
        }
        for c in &d.net_spans {
            let (x, y) = cut_word_at(c, p);
            taken.push(word_box(x, y, &c.label, 10.0, false));
        }
        for sp in &d.spans {
            let (x, y, word) = span_word_at(sp, lane_h, words);
            taken.push(word_box(x, y, word, 10.0, false));
        }
        let free = |taken: &[[f64; 4]], b: [f64; 4]| {
            !taken
                .iter()
                .any(|t| t[0] < b[1] && b[0] < t[1] && t[2] < b[3] && b[2] < t[3])
        };
        let mut marks = Vec::with_capacity(d.markers.len());
        for m in &d.markers {
            // Near the right edge the label runs leftwards, so it is not cut off.
            let end = m.x > p.x + p.w - 160.0;
            let x = if end { m.x - 6.0 } else { m.x + 6.0 };
            // Under the line, else over it.
            let place = [m.y + 12.0, m.y - 5.0].into_iter().find_map(|y| {
                let b = word_box(x, y, &m.label, 10.0, end);
                free(&taken, b).then_some((Word { x, y, end }, b))
            });
            marks.push(place.map(|(w, b)| {
                taken.push(b);
                w
            }));
        }
        let mut arrows = vec![None; d.arrows.len()];
        if !labels {
            return Places { marks, arrows };
        }
        // Nor a mark's shape, nor the ✕ where a messenger was lost.
        taken.extend(
            d.markers
                .iter()
                .map(|m| [m.x - 5.0, m.x + 5.0, m.y - 5.0, m.y + 5.0]),
        );
        taken.extend(
            d.arrows
                .iter()
                .filter(|a| missed(a))
                .map(|a| [a.x2 - 4.0, a.x2 + 4.0, a.y2 - 5.0, a.y2 + 4.0]),
        );
        let (lo, hi) = (p.x, p.x + p.w);
        let settled = (0..d.arrows.len()).filter(|&i| d.arrows[i].fate != Fate::InFlight);
        let flying = (0..d.arrows.len()).filter(|&i| d.arrows[i].fate == Fate::InFlight);
        for i in settled.chain(flying) {
            let a = &d.arrows[i];
            let text = arrow_text(a, words);
            let place = [0.5, 0.3, 0.7, 0.15, 0.85].into_iter().find_map(|f| {
                let x = a.x1 + (a.x2 - a.x1) * f;
                let y = (a.y1 + (a.y2 - a.y1) * f) - 2.0;
                [false, true].into_iter().find_map(|end| {
                    let x = if end { x - 2.0 } else { x + 2.0 };
                    let b = word_box(x, y, &text, 9.0, end);
                    (b[0] >= lo && b[1] <= hi && free(&taken, b)).then(|| {
                        taken.push(b);
                        Word { x, y, end }
                    })
                })
            });
            arrows[i] = place;
        }
        Places { marks, arrows }
    }
}

/// The partitions (shading the whole height) and the crashes and pauses
/// (their own lane) that `layer` draws.
fn spans(s: &mut String, d: &Diagram, words: DiagramWords, layer: Layer) {
    let p = d.plot;
    let lane_h = p.h / d.lanes.len().max(1) as f64;
    s.push_str("<g class=\"spans\" clip-path=\"url(#plot)\">\n");
    for c in &d.net_spans {
        if !layer.span(c.open) {
            continue;
        }
        let (wx, wy) = cut_word_at(c, p);
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{VERMILLION}" fill-opacity="0.07"><title>{}</title></rect><text x="{}" y="{}" fill="{VERMILLION}">{}</text>"#,
            n(c.x1),
            n(p.y),
            n((c.x2 - c.x1).max(1.0)),
            n(p.h),
            escape(&c.label),
            n(wx),
            n(wy),
            escape(&c.label)
        );
    }
    for sp in &d.spans {
        let fill = match sp.kind {
            SpanKind::Crashed => "url(#hatch)",
            SpanKind::Paused => "#56B4E9",
        };
        let (wx, wy, word) = span_word_at(sp, lane_h, words);
        if !layer.span(sp.open) {
            continue;
        }
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" fill-opacity="0.35" stroke="#888888"/><text x="{}" y="{}" fill="#333333">{}</text>"##,
            n(sp.x1),
            n(sp.y - lane_h * 0.3),
            n((sp.x2 - sp.x1).max(1.0)),
            n(lane_h * 0.6),
            n(wx),
            n(wy),
            escape(word),
        );
    }
    s.push_str("</g>\n");
}

/// The arrows `layer` draws, with their words or (`labels` false) merged.
fn arrows(
    s: &mut String,
    d: &Diagram,
    labels: bool,
    words: DiagramWords,
    layer: Layer,
    places: &[Option<Word>],
) {
    s.push_str("<g class=\"arrows\" clip-path=\"url(#plot)\">\n");
    let drawn = d.arrows.iter().filter(|a| layer.arrow(a));
    if labels {
        for (a, place) in d.arrows.iter().zip(places) {
            if layer.arrow(a) {
                arrow(s, a, words, *place);
            }
        }
    } else {
        merged_arrows(s, drawn);
    }
    s.push_str("</g>\n");
}

/// The layer that moves with the cursor: the open spans and the messages in
/// flight, in a bare `<svg>` the size of the diagram — or nothing, when
/// nothing is open or in flight.
fn moving_layer(d: &Diagram, labels: bool, words: DiagramWords) -> String {
    let moving = Layer::Moving;
    if !d.arrows.iter().any(|a| moving.arrow(a))
        && !d.spans.iter().any(|sp| moving.span(sp.open))
        && !d.net_spans.iter().any(|c| moving.span(c.open))
    {
        return String::new();
    }
    let mut s = String::with_capacity(1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="10">"#,
        w = n(d.width),
        h = n(d.height),
    );
    spans(&mut s, d, words, Layer::Moving);
    let places = Places::of(d, labels, false, words);
    arrows(&mut s, d, labels, words, Layer::Moving, &places.arrows);
    s.push_str("</svg>\n");
    s
}

/// Arrows without labels (the live diagram's crowded windows): nothing of
/// an arrow's own is left but its line, its head or its ✕, so the arrows of
/// a colour are drawn as one path of lines, one of dashed lines and one of
/// heads — a tenth of the elements for the browser to parse, style and lay
/// out each time the window moves, and the same picture.
fn merged_arrows<'a>(s: &mut String, arrows: impl Iterator<Item = &'a Arrow>) {
    // Per stroke colour, in the order first met: lines, dashed lines, heads.
    let mut paths: Vec<(&str, [String; 3])> = Vec::new();
    let mut crosses = String::new();
    for a in arrows {
        let c = colour(a.msg_type);
        let k = match paths.iter().position(|(pc, _)| *pc == c) {
            Some(k) => k,
            None => {
                paths.push((c, Default::default()));
                paths.len() - 1
            }
        };
        let [lines, dashed, heads] = &mut paths[k].1;
        let missed = missed(a);
        // Where the line ends, and the point it arrives from.
        let ((from_x, from_y), (tip_x, tip_y)) = match self_loop(a) {
            Some(l) => {
                let _ = write!(
                    lines,
                    "M{},{}C{},{} {},{} {},{}",
                    f1(a.x1),
                    f1(a.y1),
                    f1(l.cx1),
                    f1(l.cy),
                    f1(l.cx2),
                    f1(l.cy),
                    f1(l.x2),
                    f1(a.y1)
                );
                ((l.cx2, l.cy), (l.x2, a.y1))
            }
            None => {
                let path = if missed { dashed } else { lines };
                let _ = write!(path, "M{},{}L{},{}", f1(a.x1), f1(a.y1), f1(a.x2), f1(a.y2));
                ((a.x1, a.y1), (a.x2, a.y2))
            }
        };
        if missed {
            cross(&mut crosses, a);
            continue;
        }
        // The head `arrow`'s marker draws: 8 × 6 stroke widths, its tip on
        // the end, turned along the line (rightwards if it has no length).
        let (dx, dy) = (tip_x - from_x, tip_y - from_y);
        let len = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = if len > 1e-9 {
            (dx / len, dy / len)
        } else {
            (1.0, 0.0)
        };
        let (back, side) = (8.0 * 1.2, 3.0 * 1.2);
        let (bx, by) = (tip_x - back * ux, tip_y - back * uy);
        let _ = write!(
            heads,
            "M{},{}L{},{}L{},{}z",
            f1(bx - side * uy),
            f1(by + side * ux),
            f1(tip_x),
            f1(tip_y),
            f1(bx + side * uy),
            f1(by - side * ux)
        );
    }
    for (c, [lines, dashed, heads]) in &paths {
        if !lines.is_empty() {
            let _ = writeln!(
                s,
                r#"<path d="{lines}" fill="none" stroke="{c}" stroke-width="1.2"/>"#
            );
        }
        if !dashed.is_empty() {
            let _ = writeln!(
                s,
                r#"<path d="{dashed}" fill="none" stroke="{c}" stroke-width="1.2" stroke-dasharray="4 3"/>"#
            );
        }
        if !heads.is_empty() {
            // The marker's colour, as `arrow` picks it.
            let fill = HEADS[head(c)];
            let _ = writeln!(s, r#"<path d="{heads}" fill="{fill}"/>"#);
        }
    }
    s.push_str(&crosses);
}

/// Which marker heads an arrow of colour `c` (an index into `HEADS`).
fn head(c: &str) -> usize {
    HEADS.iter().position(|h| *h == c).unwrap_or(6)
}

/// A messenger that did not arrive (lost, cut off, or its receiver down).
fn missed(a: &Arrow) -> bool {
    !matches!(a.fate, Fate::Delivered | Fate::InFlight)
}

/// A legislator talking to itself (roles on one machine) that arrived or
/// is on its way is drawn as a small loop over its lane: where it ends and
/// its two control points.
struct Loop {
    x2: f64,
    cx1: f64,
    cx2: f64,
    cy: f64,
}

fn self_loop(a: &Arrow) -> Option<Loop> {
    (a.from == a.to && !missed(a)).then(|| {
        let x2 = a.x2.max(a.x1 + 3.0);
        Loop {
            x2,
            cx1: a.x1 + 6.0,
            cx2: x2 + 6.0,
            cy: a.y1 - 14.0,
        }
    })
}

/// The ✕ where a messenger that did not arrive ended.
fn cross(s: &mut String, a: &Arrow) {
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" fill="{VERMILLION}" font-size="12">✕</text>"#,
        n(a.x2),
        n(a.y2 + 4.0)
    );
}

/// One arrow with its label and its title (exports, and the live diagram's
/// uncrowded windows).
fn arrow(s: &mut String, a: &Arrow, words: DiagramWords, place: Option<Word>) {
    let c = colour(a.msg_type);
    let missed = missed(a);
    let text = escape(&arrow_text(a, words));
    let dash = if missed {
        r#" stroke-dasharray="4 3""#
    } else {
        ""
    };
    let marker = if missed {
        String::new()
    } else {
        format!(r#" marker-end="url(#head{})""#, head(c))
    };
    let _ = write!(s, r#"<g class="msg {}" data-id="{}">"#, a.msg_type, a.id);
    if let Some(l) = self_loop(a) {
        let _ = write!(
            s,
            r#"<path d="M{x1},{y} C{cx1},{cy} {cx2},{cy} {x2},{y}" fill="none" stroke="{c}"{marker}/>"#,
            x1 = n(a.x1),
            x2 = n(l.x2),
            y = n(a.y1),
            cx1 = n(l.cx1),
            cx2 = n(l.cx2),
            cy = n(l.cy),
        );
    } else {
        let _ = write!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{c}" stroke-width="1.2"{dash}{marker}/>"#,
            n(a.x1),
            n(a.y1),
            n(a.x2),
            n(a.y2)
        );
    }
    if missed {
        cross(s, a);
    }
    if let Some(w) = place {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" fill="{c}" font-size="9"{}>{text}</text>"#,
            n(w.x),
            n(w.y),
            w.anchor(),
        );
    }
    let _ = writeln!(s, "<title>{text}</title></g>");
}

/// An arrow's words: its label, and what became of it.
fn arrow_text(a: &Arrow, words: DiagramWords) -> String {
    let mut text = a.label.clone();
    if a.duplicate {
        text.push(' ');
        text.push_str(words.duplicate);
    }
    match a.fate {
        Fate::Delivered => {}
        Fate::InFlight => {
            text.push(' ');
            text.push_str(words.in_flight);
        }
        f => {
            text.push_str(" ✕ ");
            text.push_str(match f {
                Fate::Lost => words.lost,
                Fate::Partitioned => words.partitioned,
                _ => words.receiver_down,
            });
        }
    }
    text
}
