//! Step: one pull-request comment kept up to date (input `comment`; docs/action.md, "One
//! pull-request comment"). The comment is found again on the next run by its hidden marker
//! (which names the category) AND by its author being the token's own identity (GraphQL's
//! `viewer`, compared with the comment's `user.id`): anyone can post a marker, and a marked
//! comment of someone else's is left alone. Found, it is edited in place (not at all when its
//! text is already the same); else one is created. A token that cannot write (a fork's, no
//! `pull-requests: write`) gives one notice; the verdict never depends on the comment.

use super::context::RunContext;
use super::settings::Choice;
use crate::github::client::Failure;
use crate::github::command::Level;
use crate::github::comments::{self, Viewer};
use crate::outcome::PackReport;
use crate::report::comment::{is_marked, marker, render};
use crate::report::summary;

/// What the run did with its comment.
enum Done {
    Created(Option<String>),
    Edited(Option<String>),
    Unchanged(Option<String>),
    /// GitHub did not say who the token is, so its comment cannot be told from another's.
    NoIdentity(String),
}

/// The comment step; returns the lines it adds to the job summary's notes.
pub(crate) fn comment(
    reports: &[PackReport],
    gated: &[bool],
    failed: bool,
    cx: &mut RunContext<'_>,
) -> anyhow::Result<Vec<String>> {
    let s = cx.settings;
    if !s.comment {
        return Ok(Vec::new());
    }
    let Some(number) = cx.event.pull_request().map(|pr| pr.number) else {
        return said(cx, "not a pull request's run, so no comment".to_string());
    };
    let Some((owner, repo)) = cx.gh.owner_repo() else {
        return said(
            cx,
            "GITHUB_REPOSITORY is not set, so no comment".to_string(),
        );
    };
    if s.token.is_none() {
        return said(cx, "no token, so no comment".to_string());
    }
    let graphql = match comments::graphql_uri(&cx.gh.api_url, cx.gh.graphql_url.as_deref()) {
        Ok(uri) => uri,
        Err(why) => return notice(cx, &why),
    };
    let mark = marker(&s.category);
    let context = summary::Context {
        gated: gated.to_vec(),
        scope: s.scope.name().to_string(),
        fail_on: s.fail_on.name().to_string(),
        failed,
        notes: Vec::new(),
    };
    let body = render(reports, &context, &mark);
    let written = cx.github("pull-request comment", async |http, retry| {
        let me = comments::viewer(http, &graphql, &mut *retry).await?;
        let all = comments::list(http, (owner, repo), number, &mut *retry).await?;
        let marked = |c: &&comments::Comment| is_marked(&c.body, &mark);
        let others: Vec<String> = all
            .iter()
            .filter(marked)
            .filter(|c| me.id.is_none() || c.user_id != me.id)
            .map(|c| {
                c.user_login
                    .clone()
                    .unwrap_or_else(|| "a deleted account".into())
            })
            .collect();
        let Viewer { id: Some(id), .. } = me else {
            return Ok((Done::NoIdentity(me.login), others));
        };
        let ours = all.iter().filter(marked).find(|c| c.user_id == Some(id));
        let done = match ours {
            Some(c) if c.body == body => Done::Unchanged(c.html_url.clone()),
            Some(c) => {
                let c = comments::update(http, (owner, repo), c.id, &body, &mut *retry).await?;
                Done::Edited(c.html_url)
            }
            None => {
                let c = comments::create(http, (owner, repo), number, &body, &mut *retry).await?;
                Done::Created(c.html_url)
            }
        };
        Ok((done, others))
    })?;
    match written {
        Ok((done, others)) => report(cx, number, done, &others),
        Err(f) => refused(cx, number, &f),
    }
}

/// The log's and the summary's lines for what was done.
fn report(
    cx: &mut RunContext<'_>,
    number: u64,
    done: Done,
    others: &[String],
) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    for who in others {
        let line = format!(
            "a comment by {who} on pull request #{number} holds this category's marker; left alone"
        );
        notes.extend(said(cx, line)?);
    }
    let at = |url: Option<String>| url.map(|u| format!(": {u}")).unwrap_or_default();
    let line = match done {
        Done::Created(url) => format!("created on pull request #{number}{}", at(url)),
        Done::Edited(url) => format!("edited in place on pull request #{number}{}", at(url)),
        Done::Unchanged(url) => format!("already up to date on pull request #{number}{}", at(url)),
        Done::NoIdentity(login) => {
            let why = format!(
                "GitHub did not give the id of the token's user ({login}), so this run's comment cannot be told from another's; no comment written"
            );
            return notice(cx, &why);
        }
    };
    notes.extend(said(cx, line)?);
    Ok(notes)
}

/// A request failed: one notice saying why, and what to do when the token may not write.
fn refused(cx: &mut RunContext<'_>, number: u64, f: &Failure) -> anyhow::Result<Vec<String>> {
    let msg = match f.status() {
        Some(403) | Some(401) | Some(404) => {
            let why = cx
                .event
                .read_only()
                .map(|w| format!("{w}, whose token is read-only; "))
                .unwrap_or_default();
            format!(
                "no comment on pull request #{number} ({f}): {why}the token cannot read or write the pull request's comments. Give the job `permissions: pull-requests: write`, or set `comment: false`"
            )
        }
        _ => format!("no comment on pull request #{number}: {f}"),
    };
    notice(cx, &msg)
}

/// A fact: a log line, and the same in the summary.
fn said(cx: &mut RunContext<'_>, line: String) -> anyhow::Result<Vec<String>> {
    let line = format!("comment: {line}");
    cx.line(&format!("hippo-packs: {line}"))?;
    Ok(vec![line])
}

/// What the user must act on: a notice, and the same in the summary.
fn notice(cx: &mut RunContext<'_>, msg: &str) -> anyhow::Result<Vec<String>> {
    cx.annotate(Level::Notice, "comment", msg)?;
    Ok(vec![format!("comment: {msg}")])
}
