//! `paxos-island etcd`: the same lease on a real etcd, live.
//!
//! Acquire is a lease grant plus a transaction that creates the lease key
//! only if it is absent (`create_revision = 0`), attached to the lease; the
//! epoch is the key's revision — etcd's fencing token, as Chubby's sequencer
//! is Chubby's. Renewal is a keep-alive. A write to `orders/1` is a
//! transaction guarded by `mod_revision(lease key) = epoch`: it lands only
//! while the writer's key is still there, unchanged — the live-lease check,
//! judged by etcd. etcd expires leases on its own clock, so there is no
//! simulated time here: live runs only, recorded as traces.

use super::http::{b64, post, unb64};
use super::live::{Acquired, Backend, LiveSpec, Written};
use super::{Flags, Out, Usage};
use crate::protocol::storage::{Fencing, Refusal};
use serde_json::{json, Value as J};
use std::time::Instant;

const LOCK_KEY: &str = "worker_leases/order-processor";
const ORDER_KEY: &str = "orders/1";

struct Etcd {
    at: String,
    start: Instant,
    lease: Option<i64>,
}

fn num(v: &J) -> i64 {
    match v {
        J::String(s) => s.parse().unwrap_or(0),
        J::Number(n) => n.as_i64().unwrap_or(0),
        _ => 0,
    }
}

impl Etcd {
    fn call(&self, path: &str, body: J) -> Result<J, String> {
        let text = post(&self.at, path, &body.to_string())?;
        serde_json::from_str(&text)
            .map_err(|e| format!("etcd answered {path} with something not JSON: {e}"))
    }
    fn now(&self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }
    /// The lease key: (holder, revision), if it is there.
    fn lock_in(&self, range: &J) -> Option<(String, u64)> {
        let kv = range.get("kvs")?.get(0)?;
        let holder = String::from_utf8(unb64(kv.get("value")?.as_str()?)?).ok()?;
        Some((holder, num(&kv["mod_revision"]) as u64))
    }
    fn range(&self, key: &str) -> Result<J, String> {
        self.call("/v3/kv/range", json!({"key": b64(key.as_bytes())}))
    }
}

impl Backend for Etcd {
    /// etcd's clock is not readable; times are ours, from the run's start.
    fn set_origin(&mut self, _t0: &str) {
        self.start = Instant::now();
    }
    fn acquire(&mut self, me: &str, ttl_us: u64) -> Result<Acquired, String> {
        let ttl_s = ttl_us.div_ceil(1_000_000) as i64;
        if let Some(id) = self.lease {
            // Renewal: a keep-alive on our lease; TTL 0 (absent) means it is gone.
            let r = self.call("/v3/lease/keepalive", json!({"ID": id.to_string()}))?;
            let alive = num(&r["result"]["TTL"]) > 0;
            let lock = self.lock_in(&self.range(LOCK_KEY)?);
            let now = self.now();
            if alive {
                if let Some((h, rev)) = lock.clone().filter(|(h, _)| h == me) {
                    return Ok(Acquired {
                        epoch: Some(rev),
                        row: Some((h, rev, now + ttl_us)),
                        now_us: now,
                    });
                }
            }
            self.lease = None;
        }
        let grant = self.call("/v3/lease/grant", json!({"TTL": ttl_s}))?;
        let id = num(&grant["ID"]);
        let k = b64(LOCK_KEY.as_bytes());
        let r = self.call(
            "/v3/kv/txn",
            json!({
                "compare": [{"key": k, "target": "CREATE", "result": "EQUAL", "create_revision": "0"}],
                "success": [{"request_put": {"key": k, "value": b64(me.as_bytes()), "lease": id.to_string()}}],
                "failure": [{"request_range": {"key": k}}]
            }),
        )?;
        let now = self.now();
        if r.get("succeeded").and_then(J::as_bool).unwrap_or(false) {
            let rev = num(&r["header"]["revision"]) as u64;
            self.lease = Some(id);
            Ok(Acquired {
                epoch: Some(rev),
                row: Some((me.to_string(), rev, now + ttl_us)),
                now_us: now,
            })
        } else {
            // Someone else's key is there: give our unused lease back.
            let _ = self.call("/v3/lease/revoke", json!({"ID": id.to_string()}));
            let lock = r["responses"]
                .get(0)
                .and_then(|x| self.lock_in(&x["response_range"]));
            Ok(Acquired {
                epoch: None,
                row: lock.map(|(h, rev)| (h, rev, now)),
                now_us: now,
            })
        }
    }

    fn write(
        &mut self,
        me: &str,
        epoch: u64,
        _key: u16,
        fencing: Fencing,
    ) -> Result<Written, String> {
        let before = self.range(ORDER_KEY)?;
        let fence_before = before["kvs"]
            .get(0)
            .and_then(|kv| unb64(kv["value"].as_str()?))
            .and_then(|v| String::from_utf8(v).ok())
            .and_then(|v| v.rsplit(' ').next().and_then(|e| e.parse().ok()))
            .unwrap_or(0);
        let value = b64(format!("done by {me} with epoch {epoch}").as_bytes());
        let put = json!({"request_put": {"key": b64(ORDER_KEY.as_bytes()), "value": value}});
        let k = b64(LOCK_KEY.as_bytes());
        let compare = if fencing == Fencing::Off {
            json!([])
        } else {
            json!([{"key": k, "target": "MOD", "result": "EQUAL", "mod_revision": epoch.to_string()}])
        };
        let r = self.call("/v3/kv/txn", json!({"compare": compare, "success": [put], "failure": [{"request_range": {"key": k}}]}))?;
        let now = self.now();
        let ok = r.get("succeeded").and_then(J::as_bool).unwrap_or(false);
        let lock = if ok {
            None
        } else {
            r["responses"]
                .get(0)
                .and_then(|x| self.lock_in(&x["response_range"]))
        };
        let reason = match (&lock, ok) {
            (_, true) => None,
            (None, false) => Some(Refusal::LeaseExpired),
            (Some(_), false) => Some(Refusal::LeaseHeldByAnother),
        };
        Ok(Written {
            ok,
            fence_before,
            lease: lock.map(|(h, rev)| (h, rev, now)),
            now_us: now,
            reason,
        })
    }
}

pub fn cmd_etcd(args: &[String], out: Out) -> Result<i32, Usage> {
    let f: Flags = super::live::flags(args)?;
    f.no_positional()?;
    let url = match f.get("url").map(str::to_string).or_else(|| std::env::var("PAXOS_ETCD_URL").ok().filter(|u| !u.trim().is_empty())) {
        Some(u) => u,
        None => {
            return Err(Usage(
                "no etcd given: pass --url http://127.0.0.1:2379, or run under scripts/with-servers.sh, which starts one and sets PAXOS_ETCD_URL".into(),
            ))
        }
    };
    let at = super::http::authority(&url).map_err(|e| Usage(format!("bad --url: {e}")))?;
    // etcd keeps time itself, in whole seconds of TTL, no shorter than ~2 s.
    let spec = LiveSpec::from_flags(&f, 2_000)?;
    if spec.fencing == Fencing::Token {
        return Err(Usage("etcd's guard is the lease key's revision (the live lease); --fencing token has no etcd form here: say article or off".into()));
    }
    if spec.ttl_us % 1_000_000 != 0 {
        return Err(Usage(
            "etcd grants leases in whole seconds: give --ttl-ms as a multiple of 1000".into(),
        ));
    }
    let status = post(&at, "/v3/maintenance/status", "{}").map_err(|e| {
        Usage(format!(
            "cannot reach etcd at {url}: {e}; start a throwaway one with scripts/with-servers.sh"
        ))
    })?;
    let version = serde_json::from_str::<J>(&status)
        .ok()
        .and_then(|v| v["version"].as_str().map(str::to_string))
        .unwrap_or_else(|| "?".into());
    // A clean start: no lease key, no order left from an earlier run.
    for key in [LOCK_KEY, ORDER_KEY] {
        post(
            &at,
            "/v3/kv/deleterange",
            &json!({"key": b64(key.as_bytes())}).to_string(),
        )
        .map_err(|e| Usage(format!("etcd at {url}: {e}")))?;
    }
    let connect = || -> Result<Box<dyn Backend>, Usage> {
        Ok(Box::new(Etcd {
            at: at.clone(),
            start: Instant::now(),
            lease: None,
        }))
    };
    let mut origin = || -> Result<String, Usage> { Ok(String::new()) };
    let done = super::live::run(&spec, "etcd-live", &connect, &mut origin)?;
    super::live::report(out, &f, &format!("etcd {version}"), &spec, &done)
}
