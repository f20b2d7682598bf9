import Dispatch
import LazyInject

// The session scope's rows (issue 32): the hot read of a property holding a scoped value, and a
// reset of the scope while many objects hold its instance.

@inline(never) func newSessionHolder() -> SessionHolder { SessionHolder() }

/// The hot read of a session-scoped property: its row alternates with the hot target's
/// `lazy var` control (`readLazyVar`), in the costs' child processes.
@inline(never) func readSession(_ holder: SessionHolder, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= holder.session.value }
  return sum
}

/// Reads each holder's session once.
@inline(never) func readSessions(_ holders: ArraySlice<SessionHolder>) -> Int {
  var sum = 0
  for holder in holders { sum &+= holder.session.value }
  return sum
}

/// The number of objects whose property holds the session when it is reset.
let sessionHolderCount = 10_000

/// A reset of the session scope and the first reads after it, each with its control, timed in
/// the same round: nanoseconds, the medians of the rounds (figures of the costs' rows).
///
/// Each round, while `sessionHolderCount` objects hold the session (each read once since the
/// last reset):
///
/// - `InitializerRegistry.shared.reset(.session)`; its control, later in the round, the same
///   reset while one object alone holds the session. Each is timed after the same other work
///   (the cold target's loop of 10,000 first reads), so that both find the caches alike;
/// - the next first read of one of them, which builds the new session; its control, one first
///   read of a new object, the new session kept;
/// - the first read of each of the others, which find the new session kept; its control, the
///   first read of each of as many new objects.
///
/// Once per round, one operation at a time: a reset changes the state it measures.
func measureScopeReset(_ settings: RunSettings) -> [TargetFigure] {
  let registry = InitializerRegistry.shared
  let count = sessionHolderCount
  func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) }
  let lone = newSessionHolder()
  let holders = (0..<count).map { _ in newSessionHolder() }
  registry.reset(.session)
  var resets: [Double] = []
  var loneResets: [Double] = []
  var firstReads: [Double] = []
  var newFirstReads: [Double] = []
  var laterReads: [Double] = []
  var newObjectReads: [Double] = []
  for _ in 0..<settings.rounds {
    // No object holds a session: the last reset emptied the handle they hold.
    var start = now()
    consume(readSession(holders[0], 1))
    firstReads.append(now() - start)
    do {
      let newHolder = newSessionHolder()
      start = now()
      consume(readSession(newHolder, 1))
      newFirstReads.append(now() - start)
    }
    start = now()
    consume(readSessions(holders[1...]))
    laterReads.append((now() - start) / Double(count - 1))
    do {
      let newHolders = (0..<count).map { _ in newSessionHolder() }
      start = now()
      consume(readSessions(newHolders[...]))
      newObjectReads.append((now() - start) / Double(count))
    }
    // Every holder holds the session.
    consume(coldTargetLazy(10_000))
    start = now()
    registry.reset(.session)
    resets.append(now() - start)
    // The control: the lone object alone holds a session.
    consume(readSession(lone, 1))
    consume(coldTargetLazy(10_000))
    start = now()
    registry.reset(.session)
    loneResets.append(now() - start)
  }
  return [
    TargetFigure(
      row: CostRow.scopeReset.rawValue, lazyNanoseconds: median(resets),
      controlNanoseconds: median(loneResets), goal: nil),
    TargetFigure(
      row: CostRow.firstReadAfterReset.rawValue, lazyNanoseconds: median(firstReads),
      controlNanoseconds: median(newFirstReads), goal: nil),
    TargetFigure(
      row: CostRow.laterReadsAfterReset.rawValue, lazyNanoseconds: median(laterReads),
      controlNanoseconds: median(newObjectReads), goal: nil),
  ]
}
