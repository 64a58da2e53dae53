#include "server/ops/state_file.hpp"

#include "pricing/rules.hpp"
#include "server/ops/file_bytes.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace lcg::ops {

namespace {

[[noreturn]] void cannot(std::string_view doing, std::string_view what, std::filesystem::path const& path, int error)
{
    throw std::runtime_error("cannot " + std::string(doing) + " " + std::string(what) + " (" + path.string() +
                             "): " + std::strerror(error));
}

// `bytes` in a new file at `path`, on the disk before this returns; false with errno set otherwise.
bool written_durably(std::filesystem::path const& path, std::string const& bytes)
{
    int const fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    std::size_t done = 0;
    while (done < bytes.size()) {
        auto const n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    bool const ok = done == bytes.size() && ::fsync(fd) == 0;
    int const error = errno;
    ::close(fd);
    errno = error;
    return ok;
}

}

std::string read_state(std::filesystem::path const& file, std::string_view what)
{
    auto bytes = read_file(file, pricing::rules::max_signed_document_bytes);
    if (!bytes)
        throw std::runtime_error("cannot read " + std::string(what) + ": " + bytes.err().message);
    return std::move(bytes).value();
}

void write_state(std::filesystem::path const& file, std::string const& bytes, std::string_view what)
{
    std::error_code ec;
    if (file.has_parent_path() && (std::filesystem::create_directories(file.parent_path(), ec), ec))
        cannot("make the folder of", what, file, ec.value());
    // A name of this process's own: two processes keeping the same state (serve and mcp mirroring
    // one origin) never write one file, and the later rename wins whole.
    auto const partial = std::filesystem::path(file.string() + ".partial-" + std::to_string(::getpid()));
    std::filesystem::remove(partial, ec);  // left by an earlier process of this number
    if (!written_durably(partial, bytes)) {
        int const error = errno;
        std::filesystem::remove(partial, ec);
        cannot("write", what, partial, error);
    }
    if (std::filesystem::rename(partial, file, ec); ec) {
        std::filesystem::remove(partial, ec);
        cannot("replace", what, file, ec.value());
    }
    // The rename itself on the disk: a power cut after it must not bring the previous state back.
    if (int const dir = ::open(file.has_parent_path() ? file.parent_path().c_str() : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

}
