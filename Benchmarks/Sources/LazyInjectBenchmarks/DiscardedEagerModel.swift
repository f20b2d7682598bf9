import LazyInject

// The discarded model row's control: the same model resolving its five dependencies in `init`
// with `resolve(_:for:)`, from a factory that is never inlined, released without a read
// (CostMeasures.swift).
//
// A file of its own, away from the row (DiscardedLazyModel.swift), whose loop differs only in
// the factory it calls: see TargetCold.swift on LLVM's function merging.

@inline(never) func newEagerViewModel() -> EagerViewModel { EagerViewModel() }

@inline(never) func discardEagerViewModels(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= newEagerViewModel().tag }
  return sum
}
