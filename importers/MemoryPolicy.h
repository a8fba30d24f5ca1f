#pragma once

namespace lanescope {

// Makes memory that the program frees go back to the system at once, so that resident memory
// follows what the model and its derived data hold. glibc serves large blocks with their own
// mappings, returned on free, but after the first such free it raises that threshold up to
// 32 MiB, and blocks below it then stay in the heap after they are freed: an import's staging
// columns and a panel's per-event values would stay resident for the life of the process.
// Fixing the threshold at 1 MiB keeps the returning behaviour. Called first thing by each
// program (viewer, command line, bench); a no-op under sanitizers and other allocators.
void returnFreedMemoryToTheSystem();

}  // namespace lanescope
