import LazyInject

// The singleton target row and its control: a new container passed through `opaque`, its
// property read once and the value passed to `use`, the container released; the control's
// `lazy var` reads a global `let`. Then the earlier loop, an information row: a container from a
// factory that is never inlined, its property's `value` read.
//
// A file of its own: a release build makes a module of LLVM IR per source file, and LLVM's
// function merging would otherwise merge this file's loops and factories with the cold
// row's (TargetCold.swift), whose code differs only in the types, so that one row would
// call its factory and getter through function pointers. See TargetMeasures.swift.

/// The singleton target's control: `count` new `lazy var` containers of the global instance.
@inline(never) func singletonTargetPlain(_ count: Int) -> Int {
  for _ in 0..<count { use(opaque(PlainSingletonHolder()).single) }
  return 0
}

/// The singleton target: `count` new `@Lazy` containers of the singleton rule's instance.
@inline(never) func singletonTargetUse(_ count: Int) -> Int {
  for _ in 0..<count { use(opaque(LazySingletonHolder()).single) }
  return 0
}

@inline(never) func newLazyVarSingletonHolder() -> LazyVarSingletonHolder {
  LazyVarSingletonHolder()
}

@inline(never) func newSingletonHolder() -> SingletonHolder { SingletonHolder() }

@inline(never) func singletonTargetLazyVar(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= newLazyVarSingletonHolder().manager.value }
  return sum
}

@inline(never) func singletonTargetLazy(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= newSingletonHolder().manager.value }
  return sum
}
