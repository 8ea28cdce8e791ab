/**
 * An exact emulation of libstdc++'s `std::sort` (introsort: median-of-three quicksort down to
 * blocks of 16, heap sort when the recursion gets too deep, then insertion sort).
 *
 * fminer sorts its edge labels with a comparator that is not a strict weak ordering
 * (database.ts `edgeLess`; docs/miners.md "Label numbering"). With such a comparator the
 * result depends on the algorithm, so the label numbering (and with it the search order and
 * the BBRC representatives) can only be reproduced by running the same algorithm. The
 * "unguarded" loops of libstdc++ are guarded here; with a consistent comparator they never
 * reach the guard.
 */

export function stdSort<T>(a: T[], less: (x: T, y: T) => boolean): void {
  const n = a.length;
  if (n < 2) return;
  introsortLoop(a, 0, n, 2 * Math.floor(Math.log2(n)), less);
  finalInsertionSort(a, 0, n, less);
}

const THRESHOLD = 16;

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

function introsortLoop<T>(a: T[], first: number, last: number, depth: number, less: (x: T, y: T) => boolean): void {
  while (last - first > THRESHOLD) {
    if (depth === 0) {
      heapSort(a, first, last, less);
      return;
    }
    depth--;
    const cut = partitionPivot(a, first, last, less);
    introsortLoop(a, cut, last, depth, less);
    last = cut;
  }
}

function partitionPivot<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): number {
  const mid = first + ((last - first) >> 1);
  moveMedianToFirst(a, first, first + 1, mid, last - 1, less);
  return unguardedPartition(a, first + 1, last, first, less);
}

function moveMedianToFirst<T>(a: T[], result: number, x: number, y: number, z: number, less: (x: T, y: T) => boolean): void {
  if (less(a[x]!, a[y]!)) {
    if (less(a[y]!, a[z]!)) swap(a, result, y);
    else if (less(a[x]!, a[z]!)) swap(a, result, z);
    else swap(a, result, x);
  } else if (less(a[x]!, a[z]!)) swap(a, result, x);
  else if (less(a[y]!, a[z]!)) swap(a, result, z);
  else swap(a, result, y);
}

function unguardedPartition<T>(a: T[], first: number, last: number, pivot: number, less: (x: T, y: T) => boolean): number {
  const lo = first;
  const hi = last;
  for (;;) {
    while (first < hi && less(a[first]!, a[pivot]!)) first++;
    last--;
    while (last > lo && less(a[pivot]!, a[last]!)) last--;
    if (!(first < last)) return first;
    swap(a, first, last);
    first++;
  }
}

function heapSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  // std::__partial_sort(first, last, last) = make_heap + sort_heap
  const len = last - first;
  if (len > 1) {
    for (let parent = (len - 2) >> 1; ; parent--) {
      adjustHeap(a, first, parent, len, a[first + parent]!, less);
      if (parent === 0) break;
    }
  }
  while (last - first > 1) {
    last--;
    const v = a[last]!;
    a[last] = a[first]!;
    adjustHeap(a, first, 0, last - first, v, less);
  }
}

function adjustHeap<T>(a: T[], first: number, hole: number, len: number, value: T, less: (x: T, y: T) => boolean): void {
  const top = hole;
  let child = hole;
  while (child < (len - 1) >> 1) {
    child = 2 * (child + 1);
    if (less(a[first + child]!, a[first + child - 1]!)) child--;
    a[first + hole] = a[first + child]!;
    hole = child;
  }
  if ((len & 1) === 0 && child === (len - 2) >> 1) {
    child = 2 * (child + 1);
    a[first + hole] = a[first + child - 1]!;
    hole = child - 1;
  }
  // push_heap
  let parent = (hole - 1) >> 1;
  while (hole > top && less(a[first + parent]!, value)) {
    a[first + hole] = a[first + parent]!;
    hole = parent;
    parent = (hole - 1) >> 1;
  }
  a[first + hole] = value;
}

function insertionSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  if (first === last) return;
  for (let i = first + 1; i < last; i++) {
    const v = a[i]!;
    if (less(v, a[first]!)) {
      for (let k = i; k > first; k--) a[k] = a[k - 1]!;
      a[first] = v;
    } else unguardedLinearInsert(a, i, first, less);
  }
}

function unguardedLinearInsert<T>(a: T[], last: number, lo: number, less: (x: T, y: T) => boolean): void {
  const v = a[last]!;
  let next = last - 1;
  while (next >= lo && less(v, a[next]!)) {
    a[last] = a[next]!;
    last = next;
    next--;
  }
  a[last] = v;
}

function finalInsertionSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  if (last - first > THRESHOLD) {
    insertionSort(a, first, first + THRESHOLD, less);
    for (let i = first + THRESHOLD; i < last; i++) unguardedLinearInsert(a, i, 0, less);
  } else insertionSort(a, first, last, less);
}
