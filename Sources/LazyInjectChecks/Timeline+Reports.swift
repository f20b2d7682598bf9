import LazyInject

extension InitializerRegistry.Timeline {
  /// The build that `build` is nested in, whose initializer asked for it; nil for an outermost
  /// build.
  ///
  /// The innermost build under way on the same track (thread, or task) that contains it. A
  /// synchronous build asked for by an async build's initializer runs on a thread, not on the
  /// task's track: it has no parent.
  public func parent(of build: Build) -> Build? { nesting.parents[build.id].map { builds[$0] } }

  /// The time of `build`'s own initializer: its duration less the builds nested in it, its
  /// waits for other threads' builds, and its rule's hook (``Build/afterBuildNanoseconds``, with
  /// what the hook built and waited for).
  public func ownNanoseconds(of build: Build) -> UInt64 {
    // What started once the hook had: the hook's, which its time counts already.
    let hookStart = build.startNanoseconds + build.durationNanoseconds - build.afterBuildNanoseconds
    let nestedBuilds = builds.filter { nested in
      nesting.parents[nested.id] == build.id && nested.startNanoseconds < hookStart
    }
    let nestedWaits = waits.indices.filter { index in
      nesting.waitParents[index] == build.id && waits[index].startNanoseconds < hookStart
    }
    let nested =
      nestedBuilds.map(\.durationNanoseconds) + nestedWaits.map { waits[$0].durationNanoseconds }
      + [build.afterBuildNanoseconds]
    return build.durationNanoseconds - min(build.durationNanoseconds, nested.reduce(0, +))
  }

  /// How long `build` waited, directly, for builds under way on other threads or tasks.
  public func waitNanoseconds(of build: Build) -> UInt64 {
    waits.indices.filter { nesting.waitParents[$0] == build.id }
      .reduce(0) { $0 + waits[$1].durationNanoseconds }
  }

  /// Each build's parent, and each wait's build: the innermost build on its track that
  /// contains it (builds are in the order they started, the outer of two first).
  private var nesting: (parents: [Int?], waitParents: [Int?]) {
    var open = [Track: [Build]]()
    let parents = builds.map { build in
      let end = build.startNanoseconds + build.durationNanoseconds
      while let last = open[build.track]?.last,
        last.startNanoseconds + last.durationNanoseconds < end
      {
        open[build.track]?.removeLast()
      }
      defer { open[build.track, default: []].append(build) }
      return open[build.track]?.last?.id
    }
    let waitParents = waits.map { wait in
      builds.last {
        $0.track == wait.track && $0.startNanoseconds <= wait.startNanoseconds
          && $0.startNanoseconds + $0.durationNanoseconds
            >= wait.startNanoseconds + wait.durationNanoseconds
      }?.id
    }
    return (parents, waitParents)
  }

  /// What the builds cost, for a person: the time in builds on the main thread and off it, the
  /// slowest builds with what they were built for, and every wait for another thread's build.
  ///
  /// ```text
  /// Time in builds: 31.2 ms on the main thread, 48.0 ms off it (12 builds, 1 wait).
  /// Slowest builds:
  ///   40.1 ms  NewsStore for prepare(), thread 2 (its own 40.1 ms)
  ///   25.3 ms  FeedViewModel for FeedScreen.model, main thread (its own 0.2 ms)
  /// Waits for another thread's build:
  ///   18.7 ms  main thread, for NewsStore in FeedViewModel.store
  /// ```
  ///
  /// A build's time includes the builds nested in it; the totals count each outermost build
  /// once.
  public var summary: String {
    let parents = nesting.parents
    let outermost = builds.filter { parents[$0.id] == nil }
    let onMain = outermost.filter { $0.track == .mainThread }
      .reduce(0) { $0 + $1.durationNanoseconds }
    let offMain = outermost.reduce(0) { $0 + $1.durationNanoseconds } - onMain
    var lines = [
      "Time in builds: \(milliseconds(onMain)) on the main thread, \(milliseconds(offMain)) off it"
        + " (\(builds.count) builds, \(waits.count) waits)."
    ]
    if !builds.isEmpty { lines.append("Slowest builds:") }
    for build in builds.sorted(by: { $0.durationNanoseconds > $1.durationNanoseconds }).prefix(10) {
      lines.append(
        "  \(milliseconds(build.durationNanoseconds))  \(build.rule.propertyTypeName) for"
          + " \(build.builtFor), \(build.track) (its own \(milliseconds(ownNanoseconds(of: build)))"
          + hook(of: build) + ")"
      )
    }
    if !waits.isEmpty { lines.append("Waits for another thread's build:") }
    for wait in waits {
      lines.append(
        "  \(milliseconds(wait.durationNanoseconds))  \(wait.track), for \(wait.waitedFor)")
    }
    return lines.joined(separator: "\n")
  }

  /// `", its hook 0.2 ms"` for a build whose rule has a hook (`afterBuild`); else nothing.
  private func hook(of build: Build) -> String {
    build.afterBuildNanoseconds == 0
      ? "" : ", its hook \(milliseconds(build.afterBuildNanoseconds))"
  }

  /// A Mermaid `gantt` chart of the builds and waits that took at least `minimumMilliseconds`:
  /// a section per thread (or per task, for async builds and what they build), times in
  /// milliseconds since recording started.
  ///
  /// GitHub renders a `mermaid` code block of it as a picture, in a README, an issue or a pull
  /// request; DocC does not.
  ///
  /// ```swift
  /// print(InitializerRegistry.stopRecording().mermaidGantt())
  /// ```
  public func mermaidGantt(minimumMilliseconds: Double = 1) -> String {
    let minimum = UInt64(minimumMilliseconds * 1_000_000)
    var sections: [String: [String]] = [:]
    var order: [String] = []
    func add(_ name: String, _ tag: String, _ start: UInt64, _ duration: UInt64, to section: String)
    {
      guard duration >= minimum else { return }
      if sections[section] == nil { order.append(section) }
      let (from, to) = (
        start / 1_000_000, max(start / 1_000_000 + 1, (start + duration) / 1_000_000)
      )
      // Mermaid reads `:`, `#` and `;` in a task's name as syntax.
      let label = name.filter { !":#;".contains($0) }
      sections[section, default: []].append(
        "  \(label) \(milliseconds(duration)) :\(tag)\(from), \(to)")
    }
    for build in builds {
      add(
        "\(build.rule.propertyTypeName) for \(build.builtFor)", "", build.startNanoseconds,
        build.durationNanoseconds, to: "\(build.track)")
    }
    for wait in waits {
      add(
        "waiting for \(wait.waitedFor)", "crit, ", wait.startNanoseconds, wait.durationNanoseconds,
        to: "\(wait.track)")
    }
    let threshold =
      minimumMilliseconds.rounded() == minimumMilliseconds
      ? "\(Int(minimumMilliseconds))" : "\(minimumMilliseconds)"
    let title = "  title Builds of at least \(threshold) ms (ms since recording started)"
    return
      (["gantt", title, "  dateFormat x", "  axisFormat %S.%L s"]
      + order.flatMap { ["  section \($0)"] + sections[$0]! }).joined(separator: "\n") + "\n"
  }
}

/// `"12.3 ms"`.
private func milliseconds(_ nanoseconds: UInt64) -> String {
  let tenths = (nanoseconds + 50_000) / 100_000
  return "\(tenths / 10).\(tenths % 10) ms"
}
