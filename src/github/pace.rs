//! Paced writes (docs/action.md, "Paced writes"): GitHub asks integrations to leave at least
//! one second between two requests that write (POST, PATCH, PUT, DELETE), and counts a burst
//! of them against a secondary rate limit that a four-shard matrix on one repository reaches
//! sooner. The run's one client ([`super::client::Http`]) asks a [`Pacer`] before every write
//! and tells it when the write is answered; reads are never held.
//!
//! The wait is measured from the previous write's answer, so GitHub sees at least
//! [`WRITE_GAP`] between answering one write and receiving the next. The time comes from a
//! [`Clock`]: the process's own in a run, one the test moves in tests.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The least time between two writes of a run.
pub(crate) const WRITE_GAP: Duration = Duration::from_secs(1);

/// A future the clock hands back for a wait.
pub(crate) type Wait<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Where the pacer reads the time and waits.
pub(crate) trait Clock: Send + Sync {
    /// The time since some fixed start.
    fn now(&self) -> Duration;
    /// Waits `d`.
    fn sleep(&self, d: Duration) -> Wait<'_>;
}

/// The process's monotonic clock, waiting on tokio's timer.
pub(crate) struct SystemClock(std::time::Instant);

impl SystemClock {
    pub(crate) fn new() -> SystemClock {
        SystemClock(std::time::Instant::now())
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
    fn sleep(&self, d: Duration) -> Wait<'_> {
        Box::pin(tokio::time::sleep(d))
    }
}

/// What the pacer has seen so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Paced {
    /// Write requests sent (each try of a retried write counts).
    pub(crate) writes: usize,
    /// Time spent waiting before writes.
    pub(crate) waited: Duration,
}

#[derive(Default)]
struct State {
    /// When the last write was answered (or gave up).
    last_answer: Option<Duration>,
    paced: Paced,
}

/// Holds each write until [`WRITE_GAP`] has passed since the last one's answer.
#[derive(Clone)]
pub(crate) struct Pacer {
    clock: Arc<dyn Clock>,
    state: Arc<Mutex<State>>,
}

impl Pacer {
    pub(crate) fn new(clock: Arc<dyn Clock>) -> Pacer {
        Pacer {
            clock,
            state: Arc::default(),
        }
    }

    /// Waits until a write may go.
    pub(crate) async fn before_write(&self) {
        let now = self.clock.now();
        let wait = self
            .lock()
            .last_answer
            .map_or(Duration::ZERO, |at| (at + WRITE_GAP).saturating_sub(now));
        if !wait.is_zero() {
            self.clock.sleep(wait).await;
            self.lock().paced.waited += wait;
        }
    }

    /// A write was answered (or failed): the next one waits from now.
    pub(crate) fn after_write(&self) {
        let now = self.clock.now();
        let mut s = self.lock();
        s.last_answer = Some(now);
        s.paced.writes += 1;
    }

    /// The writes so far and the time spent waiting for them.
    pub(crate) fn paced(&self) -> Paced {
        self.lock().paced
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the counts half-written: take them as they are.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A clock the test moves: `sleep` returns at once, having moved the time on.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct TestClock {
    now: Mutex<Duration>,
    slept: Mutex<Vec<Duration>>,
}

#[cfg(test)]
impl TestClock {
    /// Moves the time on by `d` (a request that takes `d`, a read between writes).
    pub(crate) fn advance(&self, d: Duration) {
        *self.now.lock().unwrap() += d;
    }
    /// Every wait asked for, in order.
    pub(crate) fn slept(&self) -> Vec<Duration> {
        self.slept.lock().unwrap().clone()
    }
}

#[cfg(test)]
impl Clock for TestClock {
    fn now(&self) -> Duration {
        *self.now.lock().unwrap()
    }
    fn sleep(&self, d: Duration) -> Wait<'_> {
        self.advance(d);
        self.slept.lock().unwrap().push(d);
        Box::pin(std::future::ready(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<F: Future>(f: F) -> F::Output {
        super::super::client::runtime().unwrap().block_on(f)
    }

    /// `n` writes, each taking `takes` to be answered.
    fn writes(clock: &Arc<TestClock>, pacer: &Pacer, n: usize, takes: Duration) {
        for _ in 0..n {
            block(pacer.before_write());
            clock.advance(takes);
            pacer.after_write();
        }
    }

    #[test]
    fn twenty_check_run_writes_cost_at_least_nineteen_seconds() {
        let clock = Arc::new(TestClock::default());
        let pacer = Pacer::new(clock.clone());
        writes(&clock, &pacer, 20, Duration::from_millis(300));
        let paced = pacer.paced();
        assert_eq!(paced.writes, 20);
        assert_eq!(paced.waited, Duration::from_secs(19));
        assert_eq!(
            clock.slept(),
            vec![WRITE_GAP; 19],
            "the first write goes at once"
        );
        assert_eq!(
            clock.now(),
            Duration::from_secs(19) + Duration::from_secs(6)
        );
    }

    /// A server on 127.0.0.1 answering every request `200 {}`, keeping the connection.
    fn answering() -> String {
        use std::io::{BufRead, BufReader, Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || {
                    let mut r = BufReader::new(stream);
                    loop {
                        let mut len = 0usize;
                        loop {
                            let mut l = String::new();
                            if r.read_line(&mut l).unwrap_or(0) == 0 {
                                return;
                            }
                            if l.trim_end().is_empty() {
                                break;
                            }
                            if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:")
                            {
                                len = v.trim().parse().unwrap_or(0);
                            }
                        }
                        let mut body = vec![0; len];
                        r.read_exact(&mut body).ok();
                        let answer = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
                        if r.get_mut().write_all(answer.as_bytes()).is_err() {
                            return;
                        }
                    }
                });
            }
        });
        url
    }

    #[test]
    fn the_client_holds_writes_and_lets_reads_through() {
        let url = answering();
        let clock = Arc::new(TestClock::default());
        let pacer = Pacer::new(clock.clone());
        let body = serde_json::json!({});
        let paced = block(async {
            let http = super::super::client::Http::new(&url, None, Duration::from_secs(5))
                .unwrap()
                .with_pacer(pacer.clone());
            let copy = http.with_rate_retries(1);
            let no_retry = |_: &super::super::client::Failure| {};
            http.request(None, "/a", no_retry).await.unwrap();
            http.request(Some(&body), "/b", no_retry).await.unwrap();
            http.request(None, "/c", no_retry).await.unwrap();
            copy.patch(&body, "/d", no_retry).await.unwrap();
            http.request(Some(&body), "/e", no_retry).await.unwrap();
            http.paced()
        });
        assert_eq!(paced.writes, 3, "two POSTs and a PATCH; the GETs are reads");
        assert_eq!(
            clock.slept(),
            vec![WRITE_GAP, WRITE_GAP],
            "the copy shares the pace"
        );
        assert_eq!(paced.waited, Duration::from_secs(2));
    }

    #[test]
    fn time_already_passed_counts_toward_the_gap() {
        let clock = Arc::new(TestClock::default());
        let pacer = Pacer::new(clock.clone());
        writes(&clock, &pacer, 1, Duration::ZERO);
        // A read of 400 ms between the writes: 600 ms are left to wait.
        clock.advance(Duration::from_millis(400));
        writes(&clock, &pacer, 1, Duration::ZERO);
        assert_eq!(clock.slept(), vec![Duration::from_millis(600)]);
        // Control: after two seconds of reads, nothing is left to wait.
        clock.advance(Duration::from_secs(2));
        writes(&clock, &pacer, 1, Duration::ZERO);
        assert_eq!(clock.slept().len(), 1, "no second wait");
        assert_eq!(pacer.paced().writes, 3);
    }
}
