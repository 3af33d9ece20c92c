//! One run of `ci`: what every step is handed. The settings, the GitHub environment, the event
//! (parsed once), the log and where it goes, and the run's one way to GitHub: one tokio runtime
//! and one HTTP client, both made the first time a step talks to GitHub and kept for the rest
//! of the run (`RunContext::github` is the only entry into the runtime).

use std::io::Write;

use super::log::say;
use super::settings::Settings;
use crate::github::client::{self, Failure, Http};
use crate::github::command::{Level, Log};
use crate::github::env::GithubEnv;
use crate::github::event::WorkflowEvent;
use crate::github::pace::Paced;

/// What a step of `ci` is handed.
pub(crate) struct RunContext<'a> {
    pub(crate) settings: &'a Settings,
    pub(crate) gh: &'a GithubEnv,
    pub(crate) event: &'a WorkflowEvent,
    pub(crate) log: Log,
    /// Where the log goes (standard output in the Action).
    out: &'a mut dyn Write,
    api: Api,
}

/// The runtime and the client, once made.
#[derive(Default)]
struct Api {
    runtime: Option<tokio::runtime::Runtime>,
    http: Option<Http>,
}

impl<'a> RunContext<'a> {
    pub(crate) fn new(
        settings: &'a Settings,
        gh: &'a GithubEnv,
        event: &'a WorkflowEvent,
        out: &'a mut dyn Write,
    ) -> RunContext<'a> {
        RunContext {
            settings,
            gh,
            event,
            log: Log::new(gh.actions, settings.token.as_deref()),
            out,
            api: Api::default(),
        }
    }

    /// Writes `text` (already a line or lines of the log) as it is.
    pub(crate) fn say(&mut self, text: &str) -> anyhow::Result<()> {
        say(self.out, text)
    }

    /// One line of the log.
    pub(crate) fn line(&mut self, text: &str) -> anyhow::Result<()> {
        say(self.out, &self.log.line(text))
    }

    /// An annotation (`::error`, `::warning`, `::notice` on GitHub Actions).
    pub(crate) fn annotate(&mut self, level: Level, title: &str, msg: &str) -> anyhow::Result<()> {
        say(self.out, &self.log.annotate(level, title, msg))
    }

    /// The write requests the run sent to GitHub and the time spent pacing them
    /// (docs/action.md, "Paced writes"); `None` when it made no request.
    pub(crate) fn paced(&self) -> Option<Paced> {
        self.api.http.as_ref().map(Http::paced)
    }

    /// Runs `requests` against GitHub with the run's client, which it makes (and the runtime)
    /// the first time; `Err` only when no runtime can be made. Each retry is a line of the log,
    /// `hippo-packs: <what>: <why>; trying again`. A client that cannot be made (a refused API
    /// URL or token) is the requests' failure, and is tried again by the next step.
    pub(crate) fn github<T>(
        &mut self,
        what: &str,
        requests: impl AsyncFnOnce(&Http, &mut dyn FnMut(&Failure)) -> Result<T, Failure>,
    ) -> anyhow::Result<Result<T, Failure>> {
        let runtime = match self.api.runtime.take() {
            Some(rt) => rt,
            None => client::runtime()?,
        };
        let runtime = self.api.runtime.insert(runtime);
        let (s, gh) = (self.settings, self.gh);
        let (slot, log, out) = (&mut self.api.http, &self.log, &mut *self.out);
        let mut retry = |f: &Failure| {
            let line = format!("hippo-packs: {what}: {f}; trying again");
            say(out, &log.line(&line)).ok();
        };
        Ok(runtime.block_on(async {
            let http = match slot.take() {
                Some(http) => http,
                // Made inside the runtime: octocrab's client starts a task on it.
                None => Http::new(&gh.api_url, s.token.as_deref(), s.http_timeout)
                    .map_err(Failure::Transport)?,
            };
            requests(slot.insert(http), &mut retry).await
        }))
    }
}
