//! `hippo-packs stub-model`: the stand-in model and reviewer (built by the fixture work).

#[derive(clap::Args, Debug)]
pub struct StubArgs {}

pub fn run(_args: StubArgs) -> anyhow::Result<i32> {
    anyhow::bail!("stub-model is not built yet")
}
