import Dispatch
import LazyInject

/// A distinct singleton type for each generated tag, built by an async initializer.
private final class Prepared<Tag>: Sendable {}

/// Milliseconds that `prepare()` takes for 100 async singletons whose initializers each sleep
/// 10 ms.
///
/// About 10 when they run concurrently, 1,000 if one after another. The median of a few rounds,
/// each on a new registry.
func measurePreparation(isQuick: Bool) async -> Double {
  var samples: [Double] = []
  for _ in 0..<(isQuick ? 1 : 7) {
    let registry = InitializerRegistry()
    for index in 0..<100 {
      func register<Tag>(_: Tag.Type) {
        registry.register(Prepared<Tag>.self, scope: .singleton) {
          try await Task.sleep(for: .milliseconds(10))
          return Prepared<Tag>()
        }
      }
      _openExistential(generatedType(index), do: register)
    }
    let start = DispatchTime.now().uptimeNanoseconds
    do { try await registry.prepare() } catch { fatalError("prepare() failed: \(error)") }
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
  }
  return median(samples)
}
