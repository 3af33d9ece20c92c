//! `hippo-packs ci`: the GitHub Action's entry point (built by the Action work).

#[derive(clap::Args, Debug)]
pub struct CiArgs {
    /// Where to look for packs.
    pub root: Option<String>,
}

pub fn run(_args: CiArgs) -> anyhow::Result<i32> {
    anyhow::bail!("ci is not built yet")
}
