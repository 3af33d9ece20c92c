//! The server's configuration, as `--config auto` finds it (docs/configuration.md): the
//! `.hippo-packs.toml` at the root of the git repository holding the pack, read again at every
//! check (an edit of it counts at the next one); none when the root has none.

use std::path::Path;

use crate::allow::{CI_FILE, Config};
use crate::core::{escape, paths};

/// The pack's configuration; `Err` is why the file found could not be read (the check then
/// goes on without it, as though there were none).
pub(crate) fn for_pack(dir: &Path) -> Result<Option<Config>, String> {
    let Some(root) = paths::repository_root(dir) else {
        return Ok(None);
    };
    let file = root.join(CI_FILE);
    if !file.is_file() {
        return Ok(None);
    }
    let shown = escape::line(&file.display().to_string()).into_owned();
    Config::load(&file, &shown).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_at_the_repository_root_is_read() {
        let t = tempfile::tempdir().unwrap();
        let pack = t.path().join("packs/a");
        std::fs::create_dir_all(&pack).unwrap();
        std::fs::write(t.path().join(CI_FILE), "").unwrap();
        assert!(for_pack(&pack).unwrap().is_none(), "control: no repository");
        std::fs::create_dir(t.path().join(".git")).unwrap();
        assert!(for_pack(&pack).unwrap().is_some());
        std::fs::write(t.path().join(CI_FILE), "[[allow]]\nnot = 1\n").unwrap();
        assert!(for_pack(&pack).is_err(), "a broken file is said, not read");
    }
}
