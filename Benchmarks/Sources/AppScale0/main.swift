// The app-scale executable with no extra conformances: the M = 0 row.
// Its services, holders, rules and conformances are generated at build time from
// app-scale.json (GenerateAppScale); AppScaleKit runs it, as `LazyInjectBenchmarks --only
// app-scale` asks.
import AppScaleKit

/// The first line of `main`: where the launch rows start.
let launchStart = LaunchClock.now()
runAppScale(generatedApp(), launchStart: launchStart)
