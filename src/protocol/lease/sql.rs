//! The SQL of the lease loop, as text: what the page shows at every step of
//! the store and of `orders`, and what `paxos-island pg` runs, verbatim, on a
//! real PostgreSQL. One copy, so the two cannot drift apart.
//!
//! The acquire/renew upsert and the fenced `UPDATE` are DOMAIN.md §6's,
//! tested on PostgreSQL 15 under READ COMMITTED (the article states the rule
//! in words and shows no SQL). The rest is ours: the `orders` table, the
//! release, the variants the lab's settings choose (the epoch bumped on every
//! renewal; Kleppmann's token alone; no fence), and a `now()` that returns
//! the simulated instant.
//!
//! **Simulated time as the database's clock.** A schema `sim` placed before
//! `pg_catalog` on the `search_path` holds a `now()` that reads the instant
//! from the setting `sim.now_us`. PostgreSQL resolves the unqualified `now()`
//! in the statements to it, so they run unchanged, and every run with the same
//! seed gives the same answers.

/// The lease's name in `worker_leases` (the article's lease kind).
pub const LEASE_NAME: &str = "order-processor";

/// The tables. `worker_leases` is DOMAIN.md §6's; `orders` is the lab's table.
pub const SCHEMA: &str = "\
CREATE TABLE worker_leases (
  lease_name text        PRIMARY KEY,          -- lease kind/name
  holder_id  text        NOT NULL,
  epoch      bigint      NOT NULL CHECK (epoch > 0),
  expires_at timestamptz NOT NULL              -- DB clock only
);
CREATE TABLE orders (
  id          int    PRIMARY KEY,
  status      text   NOT NULL DEFAULT 'new',
  fence_epoch bigint NOT NULL DEFAULT 0
);";

/// Simulated time as the database's clock (run once per session, before the
/// statements): `SET sim.now_us = '…'` then moves it.
pub const SIM_CLOCK: &str = "\
CREATE SCHEMA sim;
CREATE FUNCTION sim.now() RETURNS timestamptz LANGUAGE sql STABLE AS
  $$ SELECT timestamptz '2000-01-01 00:00:00+00'
            + current_setting('sim.now_us')::bigint * interval '1 microsecond' $$;
SET search_path = sim, pg_catalog, public;";

/// The rows a run starts from: `keys` orders, and — when the scenario's
/// epochs start above zero, as Kleppmann's story does at 32 — a lease row that
/// expired long ago, so the first acquire takes it over and bumps the epoch.
pub fn seed(keys: u16, initial_epoch: u64) -> String {
    let mut s = format!(
        "INSERT INTO orders (id) SELECT generate_series(1, {});",
        keys.max(1)
    );
    if initial_epoch > 0 {
        s.push_str(&format!(
            "\nINSERT INTO worker_leases VALUES ('{LEASE_NAME}', '(nobody)', {initial_epoch}, '-infinity');"
        ));
    }
    s
}

/// Acquire/renew: $1 name, $2 holder, $3 ttl seconds. Returns epoch or no row.
pub const ACQUIRE: &str = "\
INSERT INTO worker_leases AS l (lease_name, holder_id, epoch, expires_at)
VALUES ($1, $2, 1, now() + make_interval(secs => $3))
ON CONFLICT (lease_name) DO UPDATE
   SET epoch = CASE WHEN l.holder_id = EXCLUDED.holder_id AND l.expires_at > now()
                    THEN l.epoch            -- live renewal keeps the token
                    ELSE l.epoch + 1 END,   -- takeover / re-acquire bumps it
       holder_id  = EXCLUDED.holder_id,
       expires_at = EXCLUDED.expires_at
 WHERE l.holder_id = EXCLUDED.holder_id OR l.expires_at <= now()
RETURNING l.epoch;";

/// The same, with the epoch bumped on every renewal too (the lab's option).
pub const ACQUIRE_BUMP_ON_RENEW: &str = "\
INSERT INTO worker_leases AS l (lease_name, holder_id, epoch, expires_at)
VALUES ($1, $2, 1, now() + make_interval(secs => $3))
ON CONFLICT (lease_name) DO UPDATE
   SET epoch = l.epoch + 1,                 -- every renewal bumps the token
       holder_id  = EXCLUDED.holder_id,
       expires_at = EXCLUDED.expires_at
 WHERE l.holder_id = EXCLUDED.holder_id OR l.expires_at <= now()
RETURNING l.epoch;";

/// Give the lease up: $1 name, $2 holder, $3 epoch.
pub const RELEASE: &str = "\
UPDATE worker_leases l
   SET expires_at = now()
 WHERE l.lease_name = $1 AND l.holder_id = $2 AND l.epoch = $3
RETURNING l.epoch;";

/// The fenced write (ours, DOMAIN.md §6 — the article gives the rule, no SQL): $1 name, $2 holder, $3 epoch, $4 order id, $5 status.
pub const WRITE_ARTICLE: &str = "\
UPDATE orders o
   SET status = $5, fence_epoch = $3
 WHERE o.id = $4
   AND o.fence_epoch <= $3                       -- storage-side check
   AND EXISTS (SELECT 1 FROM worker_leases l     -- lease is current
                WHERE l.lease_name = $1 AND l.holder_id = $2
                  AND l.epoch = $3 AND l.expires_at > now())
RETURNING o.id;                                  -- no row = fenced out";

/// Kleppmann's monotonic token alone (same parameters; $1 and $2 unused).
pub const WRITE_TOKEN: &str = "\
UPDATE orders o
   SET status = $5, fence_epoch = $3
 WHERE o.id = $4
   AND o.fence_epoch <= $3                       -- storage-side check only
RETURNING o.id;                                  -- no row = fenced out";

/// No fence at all (same parameters; only $3, $4 and $5 used).
pub const WRITE_OFF: &str = "\
UPDATE orders o
   SET status = $5, fence_epoch = $3
 WHERE o.id = $4                                 -- no check: every write lands
RETURNING o.id;";

/// Which statement a step ran.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    Acquire { bump_on_renew: bool },
    Release,
    Write(super::super::storage::Fencing),
}

impl Statement {
    /// The name it is prepared under in psql.
    pub fn name(self) -> &'static str {
        match self {
            Statement::Acquire { .. } => "acquire",
            Statement::Release => "release",
            Statement::Write(_) => "fenced_write",
        }
    }
    pub fn text(self) -> &'static str {
        use super::super::storage::Fencing;
        match self {
            Statement::Acquire {
                bump_on_renew: false,
            } => ACQUIRE,
            Statement::Acquire {
                bump_on_renew: true,
            } => ACQUIRE_BUMP_ON_RENEW,
            Statement::Release => RELEASE,
            Statement::Write(Fencing::Article) => WRITE_ARTICLE,
            Statement::Write(Fencing::Token) => WRITE_TOKEN,
            Statement::Write(Fencing::Off) => WRITE_OFF,
        }
    }
    /// The parameter types, as `PREPARE` declares them.
    pub fn types(self) -> &'static [&'static str] {
        match self {
            Statement::Acquire { .. } => &["text", "text", "float8"],
            Statement::Release => &["text", "text", "bigint"],
            Statement::Write(_) => &["text", "text", "bigint", "int", "text"],
        }
    }
    /// The column it returns.
    pub fn returns(self) -> &'static str {
        match self {
            Statement::Acquire { .. } | Statement::Release => "epoch",
            Statement::Write(_) => "id",
        }
    }
    /// `PREPARE name(types) AS <statement>;` — runnable in psql as it is.
    pub fn prepare(self) -> String {
        format!(
            "PREPARE {}({}) AS\n{}",
            self.name(),
            self.types().join(", "),
            self.text()
        )
    }
}

/// A parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Text(String),
    Int(i64),
    /// Seconds, exact to the microsecond.
    Secs(u64),
}

impl Param {
    /// As psql would have it typed in.
    pub fn literal(&self) -> String {
        match self {
            Param::Text(s) => format!("'{}'", s.replace('\'', "''")),
            Param::Int(i) => i.to_string(),
            Param::Secs(us) => secs(*us),
        }
    }
}

/// Microseconds as a decimal number of seconds, exact: 3000000 → `3`,
/// 1250000 → `1.25`.
pub fn secs(us: u64) -> String {
    let (s, frac) = (us / 1_000_000, us % 1_000_000);
    if frac == 0 {
        s.to_string()
    } else {
        format!("{s}.{}", format!("{frac:06}").trim_end_matches('0'))
    }
}

/// `EXECUTE name(p1, p2, …);`
pub fn execute(st: Statement, params: &[Param]) -> String {
    let ps: Vec<String> = params.iter().map(Param::literal).collect();
    format!("EXECUTE {}({});", st.name(), ps.join(", "))
}

/// `SET sim.now_us = '…';` — the simulated clock the next statement reads.
pub fn set_now(us: u64) -> String {
    format!("SET sim.now_us = '{us}';")
}

/// What psql prints for a one-column result with zero or one row.
pub fn psql_result(column: &str, value: Option<i64>) -> String {
    let v = value.map(|v| v.to_string());
    let width = column.len().max(v.as_ref().map_or(0, |s| s.len()));
    let pad = width - column.len();
    let header = format!(
        " {}{}{} ",
        " ".repeat(pad / 2),
        column,
        " ".repeat(pad - pad / 2)
    );
    let rule = "-".repeat(width + 2);
    match v {
        Some(v) => format!("{}\n{rule}\n {v:>width$}\n(1 row)", header.trim_end()),
        None => format!("{}\n{rule}\n(0 rows)", header.trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::storage::Fencing;

    #[test]
    fn every_statement_ends_its_own_sql_with_one_semicolon() {
        for st in [
            Statement::Acquire {
                bump_on_renew: false,
            },
            Statement::Acquire {
                bump_on_renew: true,
            },
            Statement::Release,
        ]
        .into_iter()
        .chain(Fencing::ALL.map(Statement::Write))
        {
            let code: Vec<&str> = st
                .text()
                .lines()
                .map(|l| l.split("--").next().unwrap_or("").trim_end())
                .collect();
            assert!(
                code.iter()
                    .rev()
                    .find(|l| !l.is_empty())
                    .unwrap()
                    .ends_with(';'),
                "{}",
                st.name()
            );
            assert_eq!(code.concat().matches(';').count(), 1, "{}", st.name());
        }
    }

    #[test]
    fn ttl_seconds_are_exact_decimals() {
        assert_eq!(secs(3_000_000), "3");
        assert_eq!(secs(1_250_000), "1.25");
        assert_eq!(secs(1), "0.000001");
    }

    #[test]
    fn psql_prints_one_row_or_none() {
        assert_eq!(
            psql_result("epoch", Some(33)),
            " epoch\n-------\n    33\n(1 row)"
        );
        assert_eq!(psql_result("id", None), " id\n----\n(0 rows)");
    }

    #[test]
    fn an_execute_line_quotes_text() {
        let e = execute(
            Statement::Acquire {
                bump_on_renew: false,
            },
            &[
                Param::Text("order-processor".into()),
                Param::Text("O'Hara".into()),
                Param::Secs(3_000_000),
            ],
        );
        assert_eq!(e, "EXECUTE acquire('order-processor', 'O''Hara', 3);");
    }

    #[test]
    fn the_article_write_has_both_clauses_and_token_only_the_row_fence() {
        let a = Statement::Write(Fencing::Article).text();
        assert!(a.contains("o.fence_epoch <= $3") && a.contains("l.expires_at > now()"));
        let t = Statement::Write(Fencing::Token).text();
        assert!(t.contains("o.fence_epoch <= $3") && !t.contains("EXISTS"));
        assert!(!Statement::Write(Fencing::Off)
            .text()
            .contains("fence_epoch <="));
    }
}
