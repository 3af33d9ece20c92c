//! Step outputs (`$GITHUB_OUTPUT`), in the runner's delimiter form
//! (`name<<DELIMITER`, the value, `DELIMITER`), which no value can break: the delimiter is
//! random and checked against every value.

use std::io::Write;
use std::path::Path;

/// A delimiter found in none of the values.
fn delimiter(values: &[(&str, String)]) -> String {
    let mut seed = random_seed();
    loop {
        let d = format!("ghadelimiter_{seed:016x}");
        if values
            .iter()
            .all(|(k, v)| !k.contains(&d) && !v.contains(&d))
        {
            return d;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
    }
}

fn random_seed() -> u64 {
    let mut buf = [0u8; 8];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut buf))
        .is_ok()
    {
        return u64::from_le_bytes(buf);
    }
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    t ^ ((std::process::id() as u64) << 32)
}

/// The text appended to `$GITHUB_OUTPUT` for these outputs.
pub(crate) fn render(values: &[(&str, String)]) -> String {
    let d = delimiter(values);
    let mut out = String::new();
    for (k, v) in values {
        out.push_str(&format!("{k}<<{d}\n{v}\n{d}\n"));
    }
    out
}

/// Appends the outputs to the file.
pub(crate) fn write(path: &Path, values: &[(&str, String)]) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(render(values).as_bytes())
}

/// Reads the delimiter form back (for the tests).
#[cfg(test)]
pub(crate) fn parse(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if let Some((k, d)) = l.split_once("<<") {
            let mut v = Vec::new();
            for l in lines.by_ref() {
                if l == d {
                    break;
                }
                v.push(l);
            }
            out.push((k.to_string(), v.join("\n")));
        } else if let Some((k, v)) = l.split_once('=') {
            out.push((k.to_string(), v.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_cannot_forge_outputs() {
        let values = [
            ("sarif-file", "x\nuploaded=true".to_string()),
            ("uploaded", "false".to_string()),
        ];
        let text = render(&values);
        let parsed = parse(&text);
        assert_eq!(
            parsed,
            vec![
                ("sarif-file".to_string(), "x\nuploaded=true".to_string()),
                ("uploaded".to_string(), "false".to_string())
            ]
        );
        assert!(text.starts_with("sarif-file<<ghadelimiter_"));
        // A naive `key=value` form would have let the value add an output.
        assert_ne!(parse("sarif-file=x\nuploaded=true\n").len(), 1);
    }

    #[test]
    fn the_delimiter_avoids_the_values() {
        let d = delimiter(&[("a", "b".into())]);
        assert!(d.starts_with("ghadelimiter_"));
        let d2 = delimiter(&[("a", d.clone())]);
        assert_ne!(d, d2);
    }
}
