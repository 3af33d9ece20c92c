//! GitHub, for `hippo-packs ci` only: the environment a container action gets, the event,
//! the pull request's changed files and comments (and, through GraphQL, who the token is), the
//! code-scanning upload and its alerts, and the step outputs. Nothing else in the crate touches the network or reads `GITHUB_*`.

pub(crate) mod alerts;
pub(crate) mod checkout;
pub(crate) mod checks;
pub(crate) mod client;
pub(crate) mod command;
pub(crate) mod comments;
pub(crate) mod env;
pub(crate) mod event;
pub(crate) mod outputs;
pub(crate) mod pace;
pub(crate) mod pulls;
pub(crate) mod transport;
pub(crate) mod upload;
