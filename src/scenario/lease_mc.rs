//! Monte Carlo over lease settings: run many seeds over a grid of (TTL,
//! stall distribution, renew interval, fencing) and gather per-cell figures —
//! split-brain time, stale writes attempted / rejected / accepted, lost
//! updates, failover time. The lease lab plots these.
//!
//! `Sweep` is incremental (`advance(n)` runs at most `n` more simulations)
//! so that the page can spread the work over animation frames and show
//! progress without freezing.

use super::run::Run;
use super::Scenario;
use crate::protocol::lease::Design;
use crate::protocol::llm::LlmPreset;
use crate::protocol::storage::Fencing;
use crate::sim::dist::Latency;
use crate::sim::rng::mix;
use crate::sim::SimTime;

#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// A lease scenario; its faults are kept, its TTL/renew/LLM replaced.
    pub base: Scenario,
    pub ttls_us: Vec<u64>,
    /// Distributions of an LLM call's duration (the stall).
    pub stalls: Vec<Latency>,
    /// Renew interval as TTL / k.
    pub renew_divisors: Vec<u64>,
    pub fencing: Vec<bool>,
    pub seeds: u32,
    pub duration_us: u64,
}

/// Figures for one cell of the grid (means over its runs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    pub ttl_us: u64,
    pub stall: usize,
    pub renew_us: u64,
    pub fencing: bool,
    pub runs: u32,
    pub steps: u64,
    pub split_brain_us: f64,
    /// Fraction of runs with any split-brain window.
    pub split_brain_runs: f64,
    pub stale_attempted: f64,
    pub stale_rejected: f64,
    pub stale_accepted: f64,
    pub lost_updates: f64,
    pub failover_us: Option<f64>,
}

impl Grid {
    /// The benchmark's grid: 10 TTLs × 100 seeds = 1,000 runs of 60 s.
    pub fn standard_bench() -> Grid {
        let mut base = super::lease_spec::builtin("llm-in-loop").expect("built in");
        base.faults.clear();
        Grid {
            base,
            ttls_us: (1..=10).map(|k| k * 1_000_000).collect(),
            stalls: vec![Latency::typical_llm()],
            renew_divisors: vec![3],
            fencing: vec![true],
            seeds: 100,
            duration_us: 60_000_000,
        }
    }

    /// A grid over TTL for the lab's current settings, fencing on and off.
    pub fn over_ttl(base: &Scenario, stall: Latency, ttls_us: Vec<u64>, seeds: u32) -> Grid {
        Grid {
            base: base.clone(),
            ttls_us,
            stalls: vec![stall],
            renew_divisors: vec![3],
            fencing: vec![true, false],
            seeds,
            duration_us: 60_000_000,
        }
    }

    pub fn cell_count(&self) -> usize {
        self.ttls_us.len() * self.stalls.len() * self.renew_divisors.len() * self.fencing.len()
    }

    pub fn total_runs(&self) -> u64 {
        self.cell_count() as u64 * self.seeds as u64
    }

    /// The scenario of run `seed` in cell (ttl, stall, renew, fencing).
    pub fn scenario(
        &self,
        ttl: u64,
        stall: usize,
        divisor: u64,
        fencing: bool,
        seed: u32,
    ) -> Scenario {
        let mut s = self.base.clone();
        s.seed = mix(self.base.seed, seed as u64);
        s.stop_at_us = self.duration_us;
        if let Some(l) = s.lease.as_mut() {
            l.ttl_us = ttl;
            l.renew_us = Some((ttl / divisor.max(2)).max(1));
            l.margin_us = None;
            // "On" is the lab's own fence (the article's unless it chose the
            // token alone); "off" turns every check off.
            l.fencing = match (fencing, l.fencing) {
                (false, _) => Fencing::Off,
                (true, Fencing::Off) => Fencing::Article,
                (true, f) => f,
            };
            if l.design != Design::NoLlm {
                l.llm = LlmPreset::Custom {
                    latency: self.stalls[stall].clone(),
                };
            }
        }
        s
    }
}

/// An incremental sweep.
#[derive(Clone, Debug)]
pub struct Sweep {
    pub grid: Grid,
    cells: Vec<Cell>,
    /// Totals per cell still being summed: (split-brain runs, failover sum, failover count).
    extra: Vec<(u32, f64, u32)>,
    next_run: u64,
}

impl Sweep {
    pub fn new(grid: Grid) -> Sweep {
        let mut cells = Vec::with_capacity(grid.cell_count());
        for &ttl in &grid.ttls_us {
            for stall in 0..grid.stalls.len() {
                for &d in &grid.renew_divisors {
                    for &fencing in &grid.fencing {
                        cells.push(Cell {
                            ttl_us: ttl,
                            stall,
                            renew_us: ttl / d.max(2),
                            fencing,
                            ..Cell::default()
                        });
                    }
                }
            }
        }
        let n = cells.len();
        Sweep {
            grid,
            cells,
            extra: vec![(0, 0.0, 0); n],
            next_run: 0,
        }
    }

    pub fn done(&self) -> bool {
        self.next_run >= self.grid.total_runs()
    }

    /// Fraction of runs completed.
    pub fn progress(&self) -> f64 {
        let total = self.grid.total_runs().max(1);
        self.next_run as f64 / total as f64
    }

    /// Run up to `n` more simulations. Returns true when the sweep is complete.
    pub fn advance(&mut self, n: u32) -> bool {
        let seeds = self.grid.seeds.max(1) as u64;
        for _ in 0..n {
            if self.done() {
                break;
            }
            let cell = (self.next_run / seeds) as usize;
            let seed = (self.next_run % seeds) as u32;
            self.next_run += 1;
            let c = &self.cells[cell];
            let divisor = (c.ttl_us / c.renew_us.max(1)).max(2);
            let s = self
                .grid
                .scenario(c.ttl_us, c.stall, divisor, c.fencing, seed);
            let Ok(sim) = Run::execute(&s) else { continue };
            let Some(m) = sim.monitors().lease.as_ref() else {
                continue;
            };
            let st = m.stats_at(SimTime(s.stop_at_us).max(sim.now()));
            let c = &mut self.cells[cell];
            let e = &mut self.extra[cell];
            c.runs += 1;
            c.steps += sim.steps();
            c.split_brain_us += st.split_brain_us as f64;
            c.stale_attempted += st.stale_attempted as f64;
            c.stale_rejected += st.stale_rejected as f64;
            c.stale_accepted += st.stale_accepted as f64;
            c.lost_updates += st.lost_updates as f64;
            if st.split_brain_windows > 0 {
                e.0 += 1;
            }
            if let Some(f) = st.mean_failover_us() {
                e.1 += f as f64;
                e.2 += 1;
            }
        }
        self.done()
    }

    /// Per-cell means so far.
    pub fn cells(&self) -> Vec<Cell> {
        self.cells
            .iter()
            .zip(&self.extra)
            .map(|(c, e)| {
                let n = c.runs.max(1) as f64;
                Cell {
                    split_brain_us: c.split_brain_us / n,
                    split_brain_runs: e.0 as f64 / n,
                    stale_attempted: c.stale_attempted / n,
                    stale_rejected: c.stale_rejected / n,
                    stale_accepted: c.stale_accepted / n,
                    lost_updates: c.lost_updates / n,
                    failover_us: (e.2 > 0).then(|| e.1 / e.2 as f64),
                    ..c.clone()
                }
            })
            .collect()
    }
}

/// Run a whole grid, reporting progress after each cell.
pub fn sweep(grid: &Grid, mut progress: impl FnMut(f64)) -> Vec<Cell> {
    let mut s = Sweep::new(grid.clone());
    while !s.advance(grid.seeds.max(1)) {
        progress(s.progress());
    }
    progress(1.0);
    s.cells()
}
