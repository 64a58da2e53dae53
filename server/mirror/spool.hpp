#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lcg::mirror {

// Bytes kept on disk instead of in memory: an unnamed temporary file in the temporary directory
// (TMPDIR, else /tmp), which no other process can open and which is gone once closed, whatever
// way the process ends. A mirror spools a week's inputs here while it hashes them, so that a week
// of ten million rows costs disk, not memory. Appends come from one thread; reads of bytes already
// appended may come from any thread at once. Every failure throws std::system_error.
class spool {
public:
    spool();
    ~spool();
    spool(spool const&) = delete;
    spool& operator=(spool const&) = delete;

    void append(std::string_view bytes);
    // `size` bytes from `offset`, which must lie within what was appended.
    std::string read(std::uint64_t offset, std::size_t size) const;
    std::uint64_t size() const { return size_; }

private:
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

}
