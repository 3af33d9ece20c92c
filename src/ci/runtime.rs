//! The Action's one async runtime, made the first time a step talks to GitHub.

use crate::github::client;

/// Holds the runtime once a step needs it.
#[derive(Default)]
pub(crate) struct LazyRuntime {
    rt: Option<tokio::runtime::Runtime>,
}

impl LazyRuntime {
    /// The runtime, made on first use.
    pub(crate) fn get(&mut self) -> anyhow::Result<&tokio::runtime::Runtime> {
        if self.rt.is_none() {
            self.rt = Some(client::runtime()?);
        }
        Ok(self.rt.as_ref().expect("just set"))
    }
}
