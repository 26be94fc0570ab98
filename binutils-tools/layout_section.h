// The indexed profile's TYPE_LAYOUTS section (indexed_format.h): the
// layouts of the contexts' types, so memprof-dump needs no binary.
#ifndef MEMPROF_TOOLS_LAYOUT_SECTION_H
#define MEMPROF_TOOLS_LAYOUT_SECTION_H

#include "byte_writer.h"
#include "type_layout.h"

#include <cstddef>
#include <cstdint>

namespace memprof {

void write_layout_section (const LayoutTable &layouts, ByteWriter &w);

// Adds the section's layouts to LAYOUTS (a key already there is kept);
// throws FormatError on a damaged section.
void read_layout_section (const uint8_t *data, size_t size,
                          LayoutTable &layouts);

// The TYPE_DESTRUCTORS section: the keys of the layouts that may have a
// non-trivial destructor.
void write_destructor_section (const LayoutTable &layouts, ByteWriter &w);
// Sets the destructor flag of every layout in LAYOUTS (those of the
// same file's TYPE_LAYOUTS) from the section; throws FormatError on a
// damaged section.
void read_destructor_section (const uint8_t *data, size_t size,
                              LayoutTable &layouts);

} // namespace memprof

#endif
