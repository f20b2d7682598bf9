import LazyInject

// The cold target row and its control: a new container passed through `opaque`, its property
// read once and the value passed to `use`, all released. Then the earlier loop, an information
// row: a container from a factory that is never inlined, its property's `value` read.
//
// A file of its own: a release build makes a module of LLVM IR per source file, and LLVM's
// function merging would otherwise merge this file's loops and factories with the singleton
// row's (TargetSingleton.swift), whose code differs only in the types, so that one row would
// call its factory and getter through function pointers. See TargetMeasures.swift.

/// The cold target's control: `count` new `lazy var` containers, each read once.
@inline(never) func coldTargetPlain(_ count: Int) -> Int {
  for _ in 0..<count { use(opaque(PlainHolder()).service) }
  return 0
}

/// The cold target: `count` new `@Lazy` containers, each read once.
@inline(never) func coldTargetUse(_ count: Int) -> Int {
  for _ in 0..<count { use(opaque(LazyHolder()).service) }
  return 0
}

@inline(never) func newLazyVarHolder() -> LazyVarHolder { LazyVarHolder() }

@inline(never) func newLazyHolder() -> LazyInjectHolder { LazyInjectHolder() }

@inline(never) func coldTargetLazyVar(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= newLazyVarHolder().service.value }
  return sum
}

@inline(never) func coldTargetLazy(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= newLazyHolder().service.value }
  return sum
}
