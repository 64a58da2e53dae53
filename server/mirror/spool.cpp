#include "server/mirror/spool.hpp"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace lcg::mirror {

namespace {

[[noreturn]] void fail(char const* what)
{
    throw std::system_error(errno, std::generic_category(), what);
}

// O_TMPFILE where the file system has it (the file never has a name); else a named file, unlinked
// at once.
int open_unnamed(std::filesystem::path const& dir)
{
    int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
        return fd;
    std::string name = (dir / "lowcostgpu-spool-XXXXXX").string();
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0)
        ::unlink(name.c_str());
    return fd;
}

}

spool::spool() : fd_(open_unnamed(std::filesystem::temp_directory_path()))
{
    if (fd_ < 0)
        fail("cannot create a temporary file to spool an upstream's inputs");
}

spool::~spool() { ::close(fd_); }

void spool::append(std::string_view bytes)
{
    while (!bytes.empty()) {
        ssize_t const n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(size_));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail("cannot write an upstream's inputs to the spool (is the temporary directory full?)");
        size_ += static_cast<std::uint64_t>(n);
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

std::string spool::read(std::uint64_t offset, std::size_t size) const
{
    std::string out(size, '\0');
    std::size_t done = 0;
    while (done < size) {
        ssize_t const n = ::pread(fd_, out.data() + done, size - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail("cannot read an upstream's inputs back from the spool");
        if (n == 0) {
            errno = EIO;
            fail("the spool of an upstream's inputs is shorter than what was written to it");
        }
        done += static_cast<std::size_t>(n);
    }
    return out;
}

}
