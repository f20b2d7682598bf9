// The singleton target's loop against a second control, an information row: a `lazy var` of a
// global made at run time (`HeapGlobal`, Fixtures.swift), a heap object whose retains and releases
// are atomic writes, as a registered singleton's are. The target's control reads a statically
// initialized, immortal object, whose retains and releases write nothing.
//
// A file of its own, for the reason TargetSingleton.swift gives: LLVM's function merging would
// otherwise merge this loop with the target's control, whose code differs only in the types.

/// The informative control: `count` new `lazy var` containers of the global made at run time.
@inline(never) func singletonTargetHeapGlobal(_ count: Int) -> Int {
  for _ in 0..<count { use(opaque(PlainHeapSingletonHolder()).single) }
  return 0
}
