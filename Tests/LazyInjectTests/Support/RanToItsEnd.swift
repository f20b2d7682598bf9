import LazyInjectTestSupport
import Testing

/// Expects that the exit test's process ran its body to its end (`endReportingCompletion()`),
/// with no report of a sanitizer, or shows what the process wrote.
///
/// A thread sanitizer's report does not stop the process, so the output is searched for one.
func expectRanToItsEnd(
  _ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let result else { return }
  let output = String(decoding: result.standardErrorContent, as: UTF8.self)
  let ranToItsEnd = output.hasSuffix(exitTestCompletion + "\n")
  let isSanitizerClean = !output.contains("Sanitizer")
  #expect(
    ranToItsEnd && isSanitizerClean, "The program stopped or raced:\n\(output)",
    sourceLocation: sourceLocation)
}
