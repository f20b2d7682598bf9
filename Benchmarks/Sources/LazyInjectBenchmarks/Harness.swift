import Dispatch

/// Keeps results alive so that the optimizer cannot drop the measured work.
nonisolated(unsafe) var blackHole = 0  // Written by the single benchmark thread only.

@inline(never)
func consume(_ value: Int) {
  blackHole &+= value
}

/// The settings of a run: how many rounds, and how much work in each.
struct RunSettings: Sendable {
  /// Rounds per measure; every system is measured once per round, in turn (interleaved).
  var rounds: Int
  /// Target duration of one sample, in nanoseconds; iterations are calibrated to reach it.
  var sampleNanoseconds: UInt64
  /// Rounds of the two-thread race.
  var raceRounds: Int
  /// The largest registry size measured.
  var largestRegistry: Int

  static let full = RunSettings(
    rounds: 31, sampleNanoseconds: 20_000_000, raceRounds: 100_000, largestRegistry: 100_000)
  static let quick = RunSettings(
    rounds: 3, sampleNanoseconds: 200_000, raceRounds: 1_000, largestRegistry: 1_000)
}

/// A measured operation: runs `iterations` times, returns a checksum.
struct Candidate {
  let name: String
  let run: (Int) -> Int
  /// Runs before each call of `run`, untimed: nothing, but for a row whose state must be set
  /// around each sample (recording's).
  let setUp: () -> Void
  /// Runs after each call of `run`, untimed.
  let tearDown: () -> Void

  init(name: String, run: @escaping (Int) -> Int) {
    self.init(name: name, setUp: {}, tearDown: {}, run: run)
  }

  init(
    name: String, setUp: @escaping () -> Void, tearDown: @escaping () -> Void,
    run: @escaping (Int) -> Int
  ) {
    self.name = name
    self.setUp = setUp
    self.tearDown = tearDown
    self.run = run
  }
}

/// The median time per operation of each candidate, in nanoseconds.
struct Measurement {
  let title: String
  let nanoseconds: [String: Double]
  let order: [String]

  func ratio(_ name: String, to baseline: String) -> Double {
    nanoseconds[name]! / nanoseconds[baseline]!
  }
}

/// Measures `candidates` interleaved: each round runs each candidate once, in turn, so that a
/// slow period of the machine hits them all alike; the result is the median of the rounds.
func measure(_ title: String, _ settings: RunSettings, _ candidates: [Candidate]) -> Measurement {
  let iterations = candidates.map { calibrate($0, settings) }
  var samples = Array(repeating: [Double](), count: candidates.count)
  for _ in 0..<settings.rounds {
    for (index, candidate) in candidates.enumerated() {
      samples[index].append(time(candidate, iterations: iterations[index]))
    }
  }
  var result: [String: Double] = [:]
  for (index, candidate) in candidates.enumerated() {
    result[candidate.name] = median(samples[index])
  }
  return Measurement(title: title, nanoseconds: result, order: candidates.map(\.name))
}

/// Iterations that make one sample last about `settings.sampleNanoseconds`.
private func calibrate(_ candidate: Candidate, _ settings: RunSettings) -> Int {
  var iterations = 16
  while true {
    candidate.setUp()
    let start = DispatchTime.now().uptimeNanoseconds
    consume(candidate.run(iterations))
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    candidate.tearDown()
    if elapsed >= settings.sampleNanoseconds / 4 || iterations >= 1 << 30 {
      let perOperation = Double(elapsed) / Double(iterations)
      return max(1, Int(Double(settings.sampleNanoseconds) / max(perOperation, 0.01)))
    }
    iterations *= 4
  }
}

/// Nanoseconds per operation of one sample.
private func time(_ candidate: Candidate, iterations: Int) -> Double {
  candidate.setUp()
  let start = DispatchTime.now().uptimeNanoseconds
  consume(candidate.run(iterations))
  let elapsed = DispatchTime.now().uptimeNanoseconds - start
  candidate.tearDown()
  return Double(elapsed) / Double(iterations)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Nanoseconds per item of a one-off operation over `count` items (no interleaving possible:
/// it changes state), the median of `rounds` runs.
func timeOnce(rounds: Int, count: Int, _ body: () -> Void) -> Double {
  var samples: [Double] = []
  for _ in 0..<rounds {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))
  }
  return median(samples)
}
