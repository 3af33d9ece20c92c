//! A pull request's comments (the issue-comment routes of GitHub's REST API) and who the token
//! is (GitHub's GraphQL `viewer`): what `ci` needs to keep one comment of its own up to date.
//!
//! The token's identity comes from GraphQL, `query { viewer { login databaseId } }`: REST's
//! `GET /user` answers an installation token (the Action's `GITHUB_TOKEN`) with 403, while
//! `viewer` is the app's bot user (`github-actions[bot]`), whose `databaseId` is the `user.id`
//! of the comments the token writes. In GitHub's published GraphQL schema (octokit/graphql-schema,
//! `schema.graphql`) `Query.viewer` is `User!` ("The currently authenticated user"),
//! `User.login` is `String!` and `User.databaseId` is `Int` ("Identifies the primary key from
//! the database"), so a missing id is an answer to expect, not a broken one.

use super::client::{Failure, Http};

/// The one GraphQL query `ci` sends.
pub(crate) const VIEWER_QUERY: &str = "query { viewer { login databaseId } }";

/// GitHub lists at most this many pages of 100 comments here (3,000 comments).
const MAX_PAGES: usize = 30;

/// Who the token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Viewer {
    pub(crate) login: String,
    /// `None` when GitHub does not say (the schema allows it).
    pub(crate) id: Option<u64>,
}

/// One comment of a pull request, as far as `ci` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Comment {
    pub(crate) id: u64,
    /// The author's `user.id` (`None`: a deleted account, "ghost").
    pub(crate) user_id: Option<u64>,
    pub(crate) user_login: Option<String>,
    pub(crate) body: String,
    pub(crate) html_url: Option<String>,
}

#[derive(serde::Deserialize)]
struct Wire {
    id: u64,
    #[serde(default)]
    user: Option<WireUser>,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    html_url: Option<String>,
}

#[derive(serde::Deserialize)]
struct WireUser {
    id: Option<u64>,
    #[serde(default)]
    login: Option<String>,
}

impl From<Wire> for Comment {
    fn from(w: Wire) -> Comment {
        let (user_id, user_login) = match w.user {
            Some(u) => (u.id, u.login),
            None => (None, None),
        };
        Comment {
            id: w.id,
            user_id,
            user_login,
            body: w.body.unwrap_or_default(),
            html_url: w.html_url,
        }
    }
}

/// Where GraphQL is: `GITHUB_GRAPHQL_URL` when the runner sets it, else beside the REST API
/// (`https://api.github.com` → `/graphql` under it; `https://<host>/api/v3` →
/// `https://<host>/api/graphql`, GitHub Enterprise Server's layout). A GraphQL URL on another
/// origin than the API's is refused: the token goes to the API's host only.
pub(crate) fn graphql_uri(api_url: &str, graphql_url: Option<&str>) -> Result<String, String> {
    let origin = |u: &str| url::Url::parse(u).ok().map(|u| u.origin());
    match graphql_url {
        Some(g) if origin(g).is_some() && origin(g) == origin(api_url) => Ok(g.to_string()),
        Some(g) => Err(format!(
            "GITHUB_GRAPHQL_URL {g} is not on the API's host ({api_url}); the token is not sent there"
        )),
        None => {
            let api = api_url.trim_end_matches('/');
            Ok(match api.strip_suffix("/api/v3") {
                Some(host) => format!("{host}/api/graphql"),
                None => "/graphql".to_string(),
            })
        }
    }
}

/// The token's identity (`viewer { login databaseId }`). A GraphQL error (answered with 200)
/// is a failure naming GitHub's first message.
pub(crate) async fn viewer(
    http: &Http,
    uri: &str,
    on_retry: impl FnMut(&Failure),
) -> Result<Viewer, Failure> {
    let body = serde_json::json!({ "query": VIEWER_QUERY });
    let v: serde_json::Value = http.request(Some(&body), uri, on_retry).await?.json()?;
    let viewer = &v["data"]["viewer"];
    match viewer["login"].as_str() {
        Some(login) => Ok(Viewer {
            login: login.to_string(),
            id: viewer["databaseId"].as_u64(),
        }),
        None => Err(Failure::Decode(format!(
            "GraphQL viewer: {}",
            v["errors"][0]["message"].as_str().unwrap_or("no login")
        ))),
    }
}

/// Every comment of pull request (issue) `number`, oldest first, as far as GitHub lists them.
pub(crate) async fn list(
    http: &Http,
    (owner, repo): (&str, &str),
    number: u64,
    mut on_retry: impl FnMut(&Failure),
) -> Result<Vec<Comment>, Failure> {
    let mut uri = format!("/repos/{owner}/{repo}/issues/{number}/comments?per_page=100");
    let mut out = Vec::new();
    for _ in 0..MAX_PAGES {
        let answer = http.request(None, &uri, &mut on_retry).await?;
        out.extend(answer.json::<Vec<Wire>>()?.into_iter().map(Comment::from));
        match answer.next_page()? {
            Some(next) => uri = next,
            None => break,
        }
    }
    Ok(out)
}

/// A new comment on pull request (issue) `number`.
pub(crate) async fn create(
    http: &Http,
    (owner, repo): (&str, &str),
    number: u64,
    body: &str,
    on_retry: impl FnMut(&Failure),
) -> Result<Comment, Failure> {
    let uri = format!("/repos/{owner}/{repo}/issues/{number}/comments");
    let json = serde_json::json!({ "body": body });
    let w: Wire = http.request(Some(&json), &uri, on_retry).await?.json()?;
    Ok(w.into())
}

/// The comment `id`'s body replaced.
pub(crate) async fn update(
    http: &Http,
    (owner, repo): (&str, &str),
    id: u64,
    body: &str,
    on_retry: impl FnMut(&Failure),
) -> Result<Comment, Failure> {
    let uri = format!("/repos/{owner}/{repo}/issues/comments/{id}");
    let json = serde_json::json!({ "body": body });
    let w: Wire = http.patch(&json, &uri, on_retry).await?.json()?;
    Ok(w.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graphql_is_beside_the_api_or_where_the_runner_says() {
        assert_eq!(
            graphql_uri("https://api.github.com", None).unwrap(),
            "/graphql"
        );
        assert_eq!(
            graphql_uri("https://ghes.example/api/v3", None).unwrap(),
            "https://ghes.example/api/graphql"
        );
        let given = Some("https://ghes.example/api/graphql");
        assert_eq!(
            graphql_uri("https://ghes.example/api/v3", given).unwrap(),
            "https://ghes.example/api/graphql"
        );
        assert!(
            graphql_uri(
                "https://api.github.com",
                Some("https://elsewhere.example/graphql")
            )
            .is_err(),
            "control: another host never gets the token"
        );
    }

    #[test]
    fn a_comment_without_an_author_reads() {
        let w: Vec<Wire> = serde_json::from_str(
            r#"[{"id": 1, "user": null, "body": "x"}, {"id": 2, "user": {"id": 41898282, "login": "github-actions[bot]"}}]"#,
        )
        .unwrap();
        let c: Vec<Comment> = w.into_iter().map(Comment::from).collect();
        assert_eq!((c[0].user_id, c[0].body.as_str()), (None, "x"));
        assert_eq!((c[1].user_id, c[1].body.as_str()), (Some(41898282), ""));
    }
}
