//! The lease lab's charts, written as SVG strings — the same string is shown
//! in the page and offered as a download for slides.
//!
//! (a) the latency of LLM calls against the TTL/2 and TTL lines (log time);
//! (b) a Monte Carlo sweep against TTL, fencing on vs off;
//! (c) lease validity over time per worker (believed vs the store's).
//! Every label comes from the caller, so the charts speak the page's language.
//!
//! Written by hand rather than with a plotting library: three charts need
//! axes with round ticks, bars, lines, two marker shapes and a legend, and
//! plotters brought about 10 KB gzip of generic drawing code into the lease
//! lab's part (issue 15). The legend sits in a row above the plot, so it
//! never covers a line.

use crate::float::{coord, short};
use crate::scenario::lease_mc::Cell;
use crate::trace::svg::escape;
use std::fmt::Write;

// Okabe–Ito.
const BLUE: &str = "#0072B2";
const ORANGE: &str = "#E69F00";
const GREEN: &str = "#009E73";
const VERMILLION: &str = "#D55E00";
const PURPLE: &str = "#CC79A7";
const SKY: &str = "#56B4E9";
const PALETTE: [&str; 6] = [BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION];

/// Words a chart needs, in the page's language.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    pub title: String,
    pub x: String,
    pub y: String,
    /// Extra named things (series, reference lines), in the order each chart documents.
    pub names: Vec<String>,
}

fn name(l: &Labels, i: usize) -> &str {
    l.names.get(i).map(String::as_str).unwrap_or_default()
}

/// How an entry of the legend is drawn.
#[derive(Clone, Copy)]
enum Swatch {
    Bar,
    Line,
    Dashed,
}

/// A chart under construction: its plot area in pixels and its scales.
struct Chart {
    svg: String,
    h: f64,
    /// The plot area: left, top, right, bottom.
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    /// The x scale: data range, and whether it is logarithmic.
    xs: (f64, f64),
    log: bool,
    ys: (f64, f64),
}

const FONT: u32 = 13;
const LEFT: f64 = 66.0;
const RIGHT: f64 = 16.0;
const BOTTOM: f64 = 46.0;

/// A label's width in pixels, estimated (an SVG string cannot measure):
/// Latin letters are about half as wide as the font is high, Japanese ones
/// as wide. Estimated at 15 px, the size large type and presenter mode give
/// the charts' words (`style/parts.css`), so no entry runs into the next.
fn text_width(s: &str) -> f64 {
    s.chars()
        .map(|c| if c.is_ascii() { 0.56 } else { 1.0 })
        .sum::<f64>()
        * 15.0
}

impl Chart {
    /// The title, the legend's rows beneath it, and a plot area below those.
    fn new(
        size: (u32, u32),
        l: &Labels,
        legend: &[(&str, &str, Swatch)],
        xs: (f64, f64),
        log: bool,
        ys: (f64, f64),
    ) -> Chart {
        let (w, h) = (size.0 as f64, size.1 as f64);
        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif" font-size="{FONT}" role="img"><title>{}</title><rect width="100%" height="100%" fill="white"/><text x="{}" y="24" font-size="18" text-anchor="middle">{}</text>"#,
            size.0,
            size.1,
            size.0,
            size.1,
            escape(&l.title),
            coord(w / 2.0),
            escape(&l.title),
        );
        // The legend: entries in rows, centred, wrapped where a row is full.
        let mut rows: Vec<Vec<(&str, &str, Swatch, f64)>> = vec![Vec::new()];
        let room = w - LEFT - RIGHT;
        let mut used = 0.0;
        for &(label, colour, swatch) in legend {
            let width = 20.0 + text_width(label) + 18.0;
            if used + width > room && !rows.last().is_some_and(Vec::is_empty) {
                rows.push(Vec::new());
                used = 0.0;
            }
            used += width;
            rows.last_mut()
                .unwrap()
                .push((label, colour, swatch, width));
        }
        rows.retain(|r| !r.is_empty());
        for (k, row) in rows.iter().enumerate() {
            let total: f64 = row.iter().map(|e| e.3).sum();
            let mut x = LEFT + (room - total) / 2.0;
            let y = 46.0 + 18.0 * k as f64;
            for &(label, colour, swatch, width) in row {
                let (sx, sy) = (coord(x), coord(y - 4.0));
                match swatch {
                    Swatch::Bar => {
                        let _ = write!(
                            svg,
                            r#"<rect x="{sx}" y="{}" width="12" height="10" fill="{colour}"/>"#,
                            coord(y - 9.0)
                        );
                    }
                    Swatch::Line | Swatch::Dashed => {
                        let dash = if matches!(swatch, Swatch::Dashed) {
                            r#" stroke-dasharray="5 3""#
                        } else {
                            ""
                        };
                        let _ = write!(
                            svg,
                            r#"<line x1="{sx}" y1="{sy}" x2="{}" y2="{sy}" stroke="{colour}" stroke-width="3"{dash}/>"#,
                            coord(x + 14.0)
                        );
                    }
                }
                let _ = write!(
                    svg,
                    r#"<text x="{}" y="{}">{}</text>"#,
                    coord(x + 20.0),
                    coord(y),
                    escape(label)
                );
                x += width;
            }
        }
        let y0 = 36.0 + 18.0 * rows.len() as f64 + 8.0;
        Chart {
            svg,
            h,
            x0: LEFT,
            y0,
            x1: w - RIGHT,
            y1: h - BOTTOM,
            xs,
            log,
            ys,
        }
    }

    fn px(&self, x: f64) -> f64 {
        let f = if self.log {
            (x.ln() - self.xs.0.ln()) / (self.xs.1.ln() - self.xs.0.ln())
        } else {
            (x - self.xs.0) / (self.xs.1 - self.xs.0)
        };
        self.x0 + f * (self.x1 - self.x0)
    }

    fn py(&self, y: f64) -> f64 {
        self.y1 - (y - self.ys.0) / (self.ys.1 - self.ys.0) * (self.y1 - self.y0)
    }

    /// Grid lines, ticks with their numbers, the axes and their names.
    fn axes(&mut self, l: &Labels, xticks: &[(f64, bool)], yticks: &[f64]) {
        let (x0, y0, x1, y1) = (
            coord(self.x0),
            coord(self.y0),
            coord(self.x1),
            coord(self.y1),
        );
        let mut s = String::from(r##"<g stroke="#ddd">"##);
        for &(x, _) in xticks {
            let p = coord(self.px(x));
            let _ = write!(s, r#"<line x1="{p}" y1="{y0}" x2="{p}" y2="{y1}"/>"#);
        }
        for &y in yticks {
            let p = coord(self.py(y));
            let _ = write!(s, r#"<line x1="{x0}" y1="{p}" x2="{x1}" y2="{p}"/>"#);
        }
        s.push_str("</g><g text-anchor=\"middle\">");
        for &(x, _) in xticks.iter().filter(|t| t.1) {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}">{}</text>"#,
                coord(self.px(x)),
                coord(self.y1 + 17.0),
                short(x)
            );
        }
        let _ = write!(
            s,
            r#"<text x="{}" y="{}">{}</text></g><g text-anchor="end">"#,
            coord((self.x0 + self.x1) / 2.0),
            coord(self.h - 8.0),
            escape(&l.x)
        );
        for &y in yticks {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}">{}</text>"#,
                coord(self.x0 - 6.0),
                coord(self.py(y) + 4.0),
                short(y)
            );
        }
        let mid = coord((self.y0 + self.y1) / 2.0);
        let _ = write!(
            s,
            r#"</g><text transform="translate(16 {mid}) rotate(-90)" text-anchor="middle">{}</text><path d="M{x0} {y0}V{y1}H{x1}" fill="none" stroke="black"/>"#,
            escape(&l.y)
        );
        self.svg.push_str(&s);
    }

    /// A line through `pts` (data coordinates).
    fn line(&mut self, pts: &[(f64, f64)], colour: &str, width: u32, dashed: bool) {
        let mut d = String::new();
        for (i, &(x, y)) in pts.iter().enumerate() {
            let _ = write!(
                d,
                "{}{} {}",
                if i == 0 { "M" } else { "L" },
                coord(self.px(x)),
                coord(self.py(y))
            );
        }
        let dash = if dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = write!(
            self.svg,
            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linejoin="round"{dash}/>"#
        );
    }

    fn finish(mut self) -> String {
        self.svg.push_str("</svg>");
        self.svg
    }
}

/// Round steps for an axis from `lo` to `hi`: at most about `n` steps of
/// 1, 2 or 5 times a power of ten. Returns the ticks and the axis's end (the
/// first tick at or past `hi`).
fn nice(lo: f64, hi: f64, n: u32) -> (Vec<f64>, f64) {
    let span = (hi - lo).max(1e-9);
    let raw = span / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * mag)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil();
    let last = (hi / step - 1e-9).ceil();
    let ticks = (first as i64..=last as i64)
        .map(|k| k as f64 * step)
        .collect::<Vec<_>>();
    let end = ticks.last().copied().unwrap_or(hi).max(hi);
    (ticks, end)
}

/// Ticks of a log axis from `lo` to `hi`: 1, 2 and 5 times each power of ten
/// labelled, the other digits as faint lines only.
fn log_ticks(lo: f64, hi: f64) -> Vec<(f64, bool)> {
    let mut out = Vec::new();
    let mut p = 10f64.powf(lo.log10().floor());
    while p <= hi {
        for k in 1..10 {
            let x = p * k as f64;
            if x >= lo * (1.0 - 1e-9) && x <= hi * (1.0 + 1e-9) {
                out.push((x, matches!(k, 1 | 2 | 5)));
            }
        }
        p *= 10.0;
    }
    out
}

/// The y axis from 0 to a round number at or above `max` (0 to 1 when
/// everything is 0, so an empty chart still reads as zero).
fn y_axis(max: f64) -> (Vec<f64>, f64) {
    if max > 0.0 {
        nice(0.0, max * 1.05, 5)
    } else {
        nice(0.0, 1.0, 5)
    }
}

fn labelled(ticks: Vec<f64>) -> Vec<(f64, bool)> {
    ticks.into_iter().map(|t| (t, true)).collect()
}

/// (a) Histogram of LLM call durations (seconds, log scale) with TTL/2 and TTL.
/// `names`: [calls, "TTL/2", "TTL"].
pub fn latency(
    samples_us: &[u64],
    ttl_us: u64,
    l: &Labels,
    size: (u32, u32),
) -> Result<String, String> {
    let secs: Vec<f64> = samples_us
        .iter()
        .map(|&u| (u as f64 / 1e6).max(0.01))
        .collect();
    let lo = 0.05f64;
    let hi = secs
        .iter()
        .cloned()
        .fold(ttl_us as f64 / 1e6 * 2.0, f64::max)
        .max(1.0)
        * 1.2;
    // Log-spaced bins, so the heavy tail is visible next to the body.
    let bins = 36;
    let edge = |i: usize| lo * (hi / lo).powf(i as f64 / bins as f64);
    let mut counts = vec![0u32; bins];
    for &s in &secs {
        let k = (((s / lo).ln() / (hi / lo).ln()) * bins as f64)
            .floor()
            .clamp(0.0, bins as f64 - 1.0) as usize;
        counts[k] += 1;
    }
    let (yticks, top) = y_axis(counts.iter().copied().max().unwrap_or(0) as f64);
    let legend = [
        (name(l, 0), PURPLE, Swatch::Bar),
        (name(l, 1), ORANGE, Swatch::Line),
        (name(l, 2), VERMILLION, Swatch::Line),
    ];
    let mut c = Chart::new(size, l, &legend, (lo, hi), true, (0.0, top));
    c.axes(l, &log_ticks(lo, hi), &yticks);
    let mut bars = format!(r#"<g fill="{PURPLE}" fill-opacity="0.75">"#);
    for (i, &n) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
        let (a, b) = (c.px(edge(i)), c.px(edge(i + 1)));
        let y = c.py(n as f64);
        let _ = write!(
            bars,
            r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
            coord(a),
            coord(y),
            coord((b - a - 0.5).max(0.5)),
            coord(c.y1 - y)
        );
    }
    bars.push_str("</g>");
    c.svg.push_str(&bars);
    for (at, colour) in [
        (ttl_us as f64 / 2e6, ORANGE),
        (ttl_us as f64 / 1e6, VERMILLION),
    ] {
        if at > lo && at < hi {
            c.line(&[(at, 0.0), (at, top)], colour, 3, false);
        }
    }
    Ok(c.finish())
}

/// (b) A sweep against TTL (seconds): one line per (measure, fencing).
/// `pick` chooses the measure plotted from each cell; `names`: [fencing on, fencing off].
pub fn sweep(
    cells: &[Cell],
    pick: fn(&Cell) -> f64,
    l: &Labels,
    size: (u32, u32),
) -> Result<String, String> {
    // From 0, so the TTLs' spacing reads true.
    let most = cells
        .iter()
        .map(|c| c.ttl_us as f64 / 1e6)
        .fold(1.0, f64::max);
    let (xticks, x1) = nice(0.0, most, 8);
    let (yticks, top) = y_axis(cells.iter().map(pick).fold(0.0, f64::max));
    let legend = [
        (name(l, 0), GREEN, Swatch::Line),
        (name(l, 1), VERMILLION, Swatch::Dashed),
    ];
    let mut c = Chart::new(size, l, &legend, (0.0, x1), false, (0.0, top));
    c.axes(l, &labelled(xticks), &yticks);
    for fencing in [true, false] {
        let mut on: Vec<&Cell> = cells
            .iter()
            .filter(|c| c.fencing == fencing && c.runs > 0)
            .collect();
        if on.is_empty() {
            continue;
        }
        crate::sorted::sort_by_key(&mut on, |c| (c.ttl_us, 0));
        let pts: Vec<(f64, f64)> = on
            .iter()
            .map(|c| (c.ttl_us as f64 / 1e6, pick(c)))
            .collect();
        let colour = if fencing { GREEN } else { VERMILLION };
        c.line(&pts, colour, if fencing { 3 } else { 2 }, !fencing);
        // Distinct marker shapes: colour is never the only difference.
        let mut marks = format!(r#"<g fill="{colour}">"#);
        for &(x, y) in &pts {
            let (px, py) = (c.px(x), c.py(y));
            if fencing {
                let _ = write!(
                    marks,
                    r#"<circle cx="{}" cy="{}" r="4"/>"#,
                    coord(px),
                    coord(py)
                );
            } else {
                let _ = write!(
                    marks,
                    r#"<path d="M{} {}l6 10h-12z"/>"#,
                    coord(px),
                    coord(py - 6.0)
                );
            }
        }
        marks.push_str("</g>");
        c.svg.push_str(&marks);
    }
    Ok(c.finish())
}

/// (c) Remaining lease validity (seconds) over time, one line per series.
pub fn validity(
    series: &[(String, Vec<(f64, f64)>)],
    l: &Labels,
    size: (u32, u32),
) -> Result<String, String> {
    let x1 = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .fold(1.0, f64::max);
    let max = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(0.5, f64::max);
    let (xticks, x1) = nice(0.0, x1, 8);
    let (yticks, top) = y_axis(max);
    let legend: Vec<(&str, &str, Swatch)> = series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.0.as_str(), PALETTE[i % PALETTE.len()], Swatch::Line))
        .collect();
    let mut c = Chart::new(size, l, &legend, (0.0, x1), false, (0.0, top));
    c.axes(l, &labelled(xticks), &yticks);
    for (i, (_, pts)) in series.iter().enumerate() {
        c.line(pts, PALETTE[i % PALETTE.len()], 2, false);
    }
    Ok(c.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> Labels {
        Labels {
            title: "t".into(),
            x: "x".into(),
            y: "y".into(),
            names: vec!["a".into(), "b".into(), "c".into()],
        }
    }

    fn cell(ttl_us: u64, fencing: bool, split_brain_us: f64) -> Cell {
        Cell {
            ttl_us,
            fencing,
            runs: 1,
            split_brain_us,
            ..Cell::default()
        }
    }

    /// The numbers written as the y axis's tick labels (right-aligned text).
    fn y_labels(svg: &str) -> Vec<String> {
        let g = svg.split(r#"<g text-anchor="end">"#).nth(1).unwrap();
        let g = g.split("</g>").next().unwrap();
        g.split("\">")
            .skip(1)
            .map(|t| t.split('<').next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn charts_are_svg_with_their_labels() {
        let lat = latency(
            &[300_000, 1_500_000, 25_000_000],
            3_000_000,
            &labels(),
            (600, 300),
        )
        .unwrap();
        assert!(lat.starts_with("<svg") && lat.ends_with("</svg>"));
        // Three calls in three bins: three bars.
        assert_eq!(lat.matches("<rect x=").count(), 3 + 1, "{lat}"); // + the legend's swatch
        let cells = vec![
            cell(1_000_000, true, 2e6),
            cell(2_000_000, true, 1e6),
            cell(1_000_000, false, 2e6),
        ];
        let s = sweep(&cells, |c| c.split_brain_us / 1e6, &labels(), (600, 300)).unwrap();
        assert_eq!(s.matches("<circle").count(), 2);
        assert_eq!(
            s.matches("z\"/>").count(),
            1,
            "one triangle for fencing off"
        );
        let v = validity(
            &[("W1".into(), vec![(0.0, 1.0), (1.0, 0.5)])],
            &labels(),
            (600, 300),
        )
        .unwrap();
        assert!(v.contains(">W1<"));
    }

    #[test]
    fn an_all_zero_sweep_has_an_axis_from_0_to_1() {
        let cells = vec![cell(1_000_000, true, 0.0), cell(2_000_000, false, 0.0)];
        let s = sweep(&cells, |c| c.split_brain_us, &labels(), (600, 300)).unwrap();
        assert_eq!(y_labels(&s), ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
    }

    #[test]
    fn ticks_are_round_numbers_covering_the_data() {
        assert_eq!(nice(0.0, 16.0, 5), (vec![0.0, 5.0, 10.0, 15.0, 20.0], 20.0));
        let (t, end) = nice(0.0, 16.0, 8);
        assert_eq!((t.len(), end), (9, 16.0), "{t:?}");
        assert_eq!(nice(0.0, 3.2, 5).0, [0.0, 1.0, 2.0, 3.0, 4.0]);
        let (t, end) = nice(0.0, 472.5, 5);
        assert_eq!(t, [0.0, 100.0, 200.0, 300.0, 400.0, 500.0]);
        assert_eq!(end, 500.0);
        let lt = log_ticks(0.05, 7.2);
        let named: Vec<f64> = lt.iter().filter(|t| t.1).map(|t| t.0).collect();
        assert_eq!(named.len(), 7, "{named:?}"); // 0.05 0.1 0.2 0.5 1 2 5
        assert!((named[0] - 0.05).abs() < 1e-12 && (named[6] - 5.0).abs() < 1e-12);
        assert!(lt.iter().all(|t| t.0 >= 0.05 - 1e-12 && t.0 <= 7.2));
    }

    #[test]
    fn names_are_escaped_and_a_long_legend_wraps() {
        let names: Vec<(String, Vec<(f64, f64)>)> = (0..8)
            .map(|i| (format!("<worker & {i}> with a long name"), vec![(0.0, 1.0)]))
            .collect();
        let v = validity(&names, &labels(), (640, 300)).unwrap();
        assert!(!v.contains("<worker"));
        assert!(v.contains("&lt;worker &amp; 0&gt;"));
        // Eight wide entries cannot share one row of 558 px.
        let rows: std::collections::BTreeSet<&str> = v
            .split("<text x=\"")
            .skip(2)
            .filter_map(|t| t.split("y=\"").nth(1)?.split('"').next())
            .collect();
        assert!(rows.contains("46") && rows.contains("64"), "{rows:?}");
    }
}
