import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on a new thread whose stack is `stackSize` bytes, and waits for it.
///
/// Darwin gives secondary threads, GCD and Swift concurrency workers 512 KiB; tests of deep
/// chains run there.
func runOnThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
  final class Context: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setstacksize(&attributes, stackSize)
  let context = Unmanaged.passRetained(Context(body)).toOpaque()
  #if canImport(Glibc)
    var thread = pthread_t()
  #else
    var thread: pthread_t?
  #endif
  let created = pthread_create(
    &thread, &attributes,
    { raw in
      let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
      context.body()
      return nil
    }, context)
  precondition(created == 0, "pthread_create failed: \(created)")
  #if canImport(Glibc)
    pthread_join(thread, nil)
  #else
    pthread_join(thread!, nil)
  #endif
}

/// Whether this test binary runs under the address or thread sanitizer, whose instrumentation
/// about doubles the stack each call uses.
let isSanitized: Bool = {
  let program = dlopen(nil, RTLD_NOW)
  return dlsym(program, "__asan_init") != nil || dlsym(program, "__tsan_init") != nil
}()
