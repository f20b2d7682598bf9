// The hot target row and its control: one container whose property was read before, its
// property read `count` times and each value passed to `use`.
//
// A file of its own, as the cold and singleton rows' loops are (TargetCold.swift): LLVM's
// function merging would otherwise merge loops that differ only in their types.

/// The hot target's control: `count` reads of a `lazy var` read before.
@inline(never) func hotTargetPlain(_ holder: PlainHolder, _ count: Int) -> Int {
  for _ in 0..<count { use(holder.service) }
  return 0
}

/// The hot target: `count` reads of a `@Lazy` property read before.
@inline(never) func hotTargetUse(_ holder: LazyHolder, _ count: Int) -> Int {
  for _ in 0..<count { use(holder.service) }
  return 0
}
