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

/// A reset of the session scope, and the first reads after it: nanoseconds, medians of rounds.
struct ScopeResetCost {
  /// Objects whose property holds the session when it is reset.
  let holders: Int
  let rounds: Int
  /// One `reset(.session)` while `holders` objects hold the session.
  let resetNanoseconds: Double
  /// One `reset(.session)` while one object holds it.
  let resetOneHolderNanoseconds: Double
  /// The first read, after the reset, of one of the holders: it builds the new session.
  let firstReadNanoseconds: Double
  /// Each first read of the other holders after it, which find the new session kept.
  let laterReadNanoseconds: Double
  /// For contrast, each first read of a new object's property, which finds the session kept:
  /// a property whose session was reset holds an emptied handle, and reads through it.
  let newObjectReadNanoseconds: Double
}

/// Times a reset of the session scope, and the first reads after it.
///
/// `InitializerRegistry.shared.reset(.session)` while 10,000 objects hold the session (each
/// read once since the last reset), then the next first read of one of them, then the first
/// reads of the others, which make them hold the new session for the next round; for contrast,
/// the first reads of 10,000 new objects; and a reset while one object holds it. Once per
/// round: a reset changes the state it measures.
func measureScopeReset(_ settings: RunSettings) -> ScopeResetCost {
  let registry = InitializerRegistry.shared
  let count = 10_000
  let rounds = settings.rounds
  func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) }
  // One holder first, while the others hold nothing.
  let lone = newSessionHolder()
  var loneResets: [Double] = []
  for _ in 0..<rounds {
    consume(readSession(lone, 1))
    let start = now()
    registry.reset(.session)
    loneResets.append(now() - start)
  }
  let holders = (0..<count).map { _ in newSessionHolder() }
  consume(readSessions(holders[...]))
  var resets: [Double] = []
  var firstReads: [Double] = []
  var laterReads: [Double] = []
  var newObjectReads: [Double] = []
  for _ in 0..<rounds {
    var start = now()
    registry.reset(.session)
    resets.append(now() - start)
    start = now()
    consume(readSession(holders[0], 1))
    firstReads.append(now() - start)
    start = now()
    consume(readSessions(holders[1...]))
    laterReads.append((now() - start) / Double(count - 1))
    let newHolders = (0..<count).map { _ in newSessionHolder() }
    start = now()
    consume(readSessions(newHolders[...]))
    newObjectReads.append((now() - start) / Double(count))
  }
  return ScopeResetCost(
    holders: count, rounds: rounds, resetNanoseconds: median(resets),
    resetOneHolderNanoseconds: median(loneResets), firstReadNanoseconds: median(firstReads),
    laterReadNanoseconds: median(laterReads), newObjectReadNanoseconds: median(newObjectReads))
}
