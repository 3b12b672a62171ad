//! The lease lab's charts, drawn with plotters into SVG strings — the same
//! string is shown in the page and offered as a download for slides.
//!
//! (a) the latency of LLM calls against the TTL/2 and TTL lines (log time);
//! (b) a Monte Carlo sweep against TTL, fencing on vs off;
//! (c) lease validity over time per worker (believed vs the store's).
//! Every label comes from the caller, so the charts speak the page's language.

use crate::scenario::lease_mc::Cell;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Okabe–Ito, as plotters colours.
const BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
const ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
const GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
const VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
const PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);
const SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
const PALETTE: [RGBColor; 6] = [BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION];

const FONT: &str = "sans-serif";

/// Words a chart needs, in the page's language.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    pub title: String,
    pub x: String,
    pub y: String,
    /// Extra named things (series, reference lines), in the order each chart documents.
    pub names: Vec<String>,
}

fn name(l: &Labels, i: usize) -> String {
    l.names.get(i).cloned().unwrap_or_default()
}

/// An SVG string of `size`, on white, drawn by `paint`.
fn draw(
    size: (u32, u32),
    paint: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<(), String>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        paint(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The legend every chart has: upper right, on a light box.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()
        .map_err(|e| e.to_string())
}

/// (a) Histogram of LLM call durations (seconds, log scale) with TTL/2 and TTL.
/// `names`: [calls, "TTL/2", "TTL"].
pub fn latency(
    samples_us: &[u64],
    ttl_us: u64,
    l: &Labels,
    size: (u32, u32),
) -> Result<String, String> {
    draw(size, |root| {
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
        let top = (*counts.iter().max().unwrap_or(&1)).max(1) as f64 * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(&l.title, (FONT, 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d((lo..hi).log_scale(), 0f64..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&l.x)
            .y_desc(&l.y)
            .label_style((FONT, 13))
            .x_label_formatter(&|x| format!("{x:.1}"))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                Rectangle::new(
                    [(edge(i), 0.0), (edge(i + 1), c as f64)],
                    PURPLE.mix(0.75).filled(),
                )
            }))
            .map_err(|e| e.to_string())?
            .label(name(l, 0))
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], PURPLE.filled()));
        for (k, (at, colour)) in [
            (ttl_us as f64 / 2e6, ORANGE),
            (ttl_us as f64 / 1e6, VERMILLION),
        ]
        .into_iter()
        .enumerate()
        {
            chart
                .draw_series(LineSeries::new(
                    vec![(at, 0.0), (at, top)],
                    colour.stroke_width(3),
                ))
                .map_err(|e| e.to_string())?
                .label(name(l, k + 1))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(3))
                });
        }
        legend(&mut chart)
    })
}

/// (b) A sweep against TTL (seconds): one line per (measure, fencing).
/// `pick` chooses the measure plotted from each cell; `names`: [fencing on, fencing off].
pub fn sweep(
    cells: &[Cell],
    pick: fn(&Cell) -> f64,
    l: &Labels,
    size: (u32, u32),
) -> Result<String, String> {
    draw(size, |root| {
        let xs: Vec<f64> = cells.iter().map(|c| c.ttl_us as f64 / 1e6).collect();
        let (x0, x1) = (
            xs.iter().cloned().fold(f64::MAX, f64::min),
            xs.iter().cloned().fold(0.0, f64::max),
        );
        let (x0, x1) = if x0 < x1 {
            (x0, x1)
        } else {
            (0.0, x0.max(1.0))
        };
        let top = cells.iter().map(pick).fold(0.0, f64::max).max(1e-9) * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(&l.title, (FONT, 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(x0..x1, 0f64..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&l.x)
            .y_desc(&l.y)
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        for (k, fencing) in [true, false].into_iter().enumerate() {
            let mut pts: Vec<(f64, f64)> = cells
                .iter()
                .filter(|c| c.fencing == fencing && c.runs > 0)
                .map(|c| (c.ttl_us as f64 / 1e6, pick(c)))
                .collect();
            if pts.is_empty() {
                continue;
            }
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let colour = if fencing { GREEN } else { VERMILLION };
            let dashed = !fencing;
            chart
                .draw_series(LineSeries::new(
                    pts.clone(),
                    colour.stroke_width(if dashed { 2 } else { 3 }),
                ))
                .map_err(|e| e.to_string())?
                .label(name(l, k))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(3))
                });
            // Distinct marker shapes: colour is never the only difference.
            if fencing {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                    .map_err(|e| e.to_string())?;
            } else {
                chart
                    .draw_series(
                        pts.iter()
                            .map(|&p| TriangleMarker::new(p, 6, colour.filled())),
                    )
                    .map_err(|e| e.to_string())?;
            }
        }
        legend(&mut chart)
    })
}

/// (c) Remaining lease validity (seconds) over time, one line per series.
pub fn validity(
    series: &[(String, Vec<(f64, f64)>)],
    l: &Labels,
    size: (u32, u32),
) -> Result<String, String> {
    draw(size, |root| {
        let x1 = series
            .iter()
            .flat_map(|s| s.1.iter().map(|p| p.0))
            .fold(1.0, f64::max);
        let top = series
            .iter()
            .flat_map(|s| s.1.iter().map(|p| p.1))
            .fold(0.5, f64::max)
            * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(&l.title, (FONT, 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0f64..x1, 0f64..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&l.x)
            .y_desc(&l.y)
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (label, pts)) in series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(3))
                });
        }
        legend(&mut chart)
    })
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

    #[test]
    fn charts_are_svg_with_their_labels() {
        let lat = latency(
            &[300_000, 1_500_000, 25_000_000],
            3_000_000,
            &labels(),
            (600, 300),
        )
        .unwrap();
        assert!(lat.starts_with("<svg") && lat.contains("</svg>"));
        let cells = vec![
            Cell {
                ttl_us: 1_000_000,
                fencing: true,
                runs: 1,
                split_brain_us: 2e6,
                ..Cell::default()
            },
            Cell {
                ttl_us: 2_000_000,
                fencing: true,
                runs: 1,
                split_brain_us: 1e6,
                ..Cell::default()
            },
            Cell {
                ttl_us: 1_000_000,
                fencing: false,
                runs: 1,
                split_brain_us: 2e6,
                ..Cell::default()
            },
        ];
        let s = sweep(&cells, |c| c.split_brain_us / 1e6, &labels(), (600, 300)).unwrap();
        assert!(s.contains("</svg>"));
        let v = validity(
            &[("W1".into(), vec![(0.0, 1.0), (1.0, 0.5)])],
            &labels(),
            (600, 300),
        )
        .unwrap();
        assert!(v.contains("W1"));
    }
}
