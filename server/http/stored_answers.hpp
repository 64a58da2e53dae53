#pragma once

#include "server/http/router.hpp"

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace lcg::http {

// The answers an event loop wrote for published documents, kept as the bytes of their head and a
// view of the document's body, so that the same question asked again on the same snapshot is
// answered without the router and without building a response: what nginx does for a static file
// from its open-file cache (row "GET /v1/prices" of tests/bench/run).
//
// Only plain requests qualify: GET or HEAD, HTTP/1.1 keep-alive, no body, no validators, and a
// target and negotiation headers of bounded size. Only answers the router marks as a published
// document's are kept (payload::published_owner), and only when they are 200: such an answer
// depends on the snapshot, the target, and Accept, Accept-Encoding and Accept-Language as the router
// reads them (their first line each), and on nothing else of the request. A new snapshot empties
// the store; a document that is gone makes its answers stale. Touched by one event loop only.
// An anonymous memory file (memfd) holding a stored answer's head and body, closed with its last
// holder: the connection sends it with one sendfile, the kernel taking the pages by reference.
class memory_file {
public:
    // The file holding `parts` one after the other, or null when none can be made.
    static std::shared_ptr<const memory_file> holding(std::initializer_list<std::string_view> parts);
    explicit memory_file(int fd) : fd_(fd) {}
    ~memory_file();
    memory_file(memory_file const&) = delete;
    memory_file& operator=(memory_file const&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

class stored_answers {
public:
    struct stored {
        std::string head;                 // status line and headers, as written the first time
        std::weak_ptr<const void> owner;  // the document that owns `body`
        std::string_view body;   // of a 200: no other answer is kept
        std::string_view route;  // for the metrics: a pattern of the route table
        // The head and the body in a memory file, for an answer of file_threshold bytes or more.
        std::shared_ptr<const memory_file> file;
    };
    // A stored answer and its document, held while the answer is written.
    struct found {
        stored const* answer;
        std::shared_ptr<const void> owner;
    };

    static constexpr std::size_t max_answers = 256;    // then the store starts again, empty
    static constexpr std::size_t max_key_bytes = 1024;  // a longer question is answered afresh
    // An answer this long (head and body) is also kept in a memory file and sent from it with
    // sendfile: past about 16 KiB, copying it into the socket cost a third more CPU than handing the
    // kernel the file's pages (tests/bench, row "/v1/prices/{gpu}/history"), below it no less. At
    // most max_files files and max_file_bytes bytes per event loop, like nginx's open_file_cache.
    static constexpr std::size_t file_threshold = 16 * 1024;
    static constexpr std::size_t max_files = 64;
    static constexpr std::size_t max_file_bytes = 16 * 1024 * 1024;

    // The stored answer to `req` on `snapshot`, if any.
    std::optional<found> find(request const& req, std::shared_ptr<const snapshot::snapshot> const& snapshot);

    // Keeps `res` (whose head was written as `head`) as the answer to `req` on `snapshot`, when both
    // qualify.
    void keep(request const& req, std::shared_ptr<const snapshot::snapshot> const& snapshot, response const& res,
              std::string_view route, std::string_view head);

    std::size_t size() const { return answers_.size(); }
    std::size_t files() const { return files_; }

private:
    // The key of a qualifying request into key_; false when it does not qualify.
    bool key_of(request const& req);
    bool same_snapshot(std::shared_ptr<const snapshot::snapshot> const& snapshot) const;
    void forget_file(stored const& answer);  // its file's share of the budget
    void clear();

    std::weak_ptr<const snapshot::snapshot> snapshot_;
    std::unordered_map<std::string, stored> answers_;
    std::string key_;  // reused for every lookup, so a lookup allocates nothing
    std::size_t files_ = 0;
    std::size_t file_bytes_ = 0;
};

}
