// The app-scale executable with 200 extra conformances and 50 services, not 500: the small
// build that --quick (CI) runs, where only that the group works counts, and whose build costs
// CI a tenth of 500 services'. Its services, holders, rules and conformances are generated at
// build time from app-scale.json (GenerateAppScale); AppScaleKit runs it, as
// `LazyInjectBenchmarks --only app-scale` asks.
import AppScaleKit

/// The first line of `main`: where the launch rows start.
let launchStart = LaunchClock.now()
runAppScale(generatedApp(), launchStart: launchStart)
