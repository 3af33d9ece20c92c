//! The code-scanning upload: the SARIF file gzipped and base64-encoded, sent with octocrab's
//! typed `code_scannings().upload_sarif()`, then `get_sarif()` polled for a bounded time.

use std::io::Write;
use std::time::{Duration, Instant};

use base64::Engine;
use octocrab::models::code_scannings::{SarifAnalysis, SarifReceipt, UploadSarif};

use super::client::{Failure, Http};

/// GitHub's limit on one upload: 10 MB of gzipped SARIF.
pub(crate) const MAX_GZIPPED: usize = 10 * 1000 * 1000;

/// The tool name code scanning shows.
pub(crate) const TOOL_NAME: &str = "hippo-packs";

/// gzip, then standard base64: the `sarif` field of the upload.
pub(crate) fn encode(sarif: &[u8]) -> std::io::Result<(String, usize)> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(sarif)?;
    let bytes = gz.finish()?;
    Ok((
        base64::engine::general_purpose::STANDARD.encode(&bytes),
        bytes.len(),
    ))
}

/// Where the upload goes and what it says about the analysis.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub(crate) owner: String,
    pub(crate) repo: String,
    pub(crate) commit_sha: String,
    /// `refs/heads/main`, or `refs/pull/N/merge` on a pull request.
    pub(crate) git_ref: String,
    /// `file://` and the repository root: where the SARIF's relative paths start from.
    pub(crate) checkout_uri: Option<String>,
    /// When the analysis began (`started_at`: GitHub orders analyses of one ref by it).
    pub(crate) started_at: chrono::DateTime<chrono::Utc>,
}

/// What became of an accepted upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Processing {
    Complete,
    /// GitHub could not process it; its errors.
    Failed(Vec<String>),
    /// Still pending when the wait ran out.
    Pending,
    /// The status could not be read (the upload itself was accepted).
    Unknown(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Accepted {
    pub(crate) id: String,
    pub(crate) processing: Processing,
}

/// Uploads `encoded` (from [`encode`]) and waits up to `wait` for GitHub to process it.
pub(crate) async fn upload(
    http: &Http,
    target: &Target,
    encoded: String,
    wait: Duration,
    mut on_retry: impl FnMut(&Failure),
) -> Result<Accepted, Failure> {
    let body = UploadSarif {
        commit_sha: target.commit_sha.clone(),
        ref_field: target.git_ref.clone(),
        sarif: encoded,
        checkout_uri: target.checkout_uri.clone(),
        started_at: Some(target.started_at),
        tool_name: Some(TOOL_NAME.to_string()),
        validate: None,
    };
    // octocrab's typed models over `Http::request`, which waits out rate limits as GitHub's
    // `Retry-After` says (octocrab's own calls do not show the headers).
    let route = format!(
        "/repos/{}/{}/code-scanning/sarifs",
        target.owner, target.repo
    );
    let json = serde_json::to_value(&body).map_err(|e| Failure::Decode(e.to_string()))?;
    let receipt: SarifReceipt = http
        .request(Some(&json), &route, &mut on_retry)
        .await?
        .json()?;
    let id = receipt.id;

    let start = Instant::now();
    let mut delay = Duration::from_millis(500);
    let processing = loop {
        let left = wait.saturating_sub(start.elapsed());
        if left.is_zero() {
            break Processing::Pending;
        }
        tokio::time::sleep(delay.min(left)).await;
        delay = (delay * 2).min(Duration::from_secs(5));
        let status = http
            .request(None, &format!("{route}/{id}"), &mut on_retry)
            .await
            .and_then(|a| a.json::<SarifAnalysis>());
        match status {
            Ok(status) => match status.processing_status.as_str() {
                "complete" => break Processing::Complete,
                "failed" => break Processing::Failed(status.errors.unwrap_or_default()),
                _ => {}
            },
            // Not visible yet right after the upload.
            Err(f) if f.status() == Some(404) => {}
            Err(f) => break Processing::Unknown(f.to_string()),
        }
    };
    Ok(Accepted { id, processing })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn encoding_round_trips() {
        let sarif = br#"{"version":"2.1.0","runs":[]}"#.repeat(100);
        let (b64, gz_len) = encode(&sarif).unwrap();
        let gz = base64::engine::general_purpose::STANDARD
            .decode(&b64)
            .unwrap();
        assert_eq!(gz.len(), gz_len);
        assert!(gz_len < sarif.len(), "repetitive text compresses");
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, sarif);
        assert_ne!(b64.as_bytes(), &sarif[..]);
    }
}
