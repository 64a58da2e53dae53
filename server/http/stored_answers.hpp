#pragma once

#include "server/http/http_date.hpp"
#include "server/http/router.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lcg::http {

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

// The answers an event loop wrote for published documents and for the operations' computed
// answers, kept as the bytes of their head and a view of the body, so that the same question asked
// again on the same snapshot is answered without the router and without building a response: what
// nginx does for a static file from its open-file cache (rows "GET /v1/prices" and "GET
// /v1/estimate" of tests/bench/run).
//
// Only plain requests qualify: GET or HEAD, HTTP/1.1 keep-alive, no body, no validators, and a
// target and negotiation headers of bounded size. Only answers the router marks as the same for
// every such request are kept (payload::replayable), and only when they are 200: such an answer
// depends on the snapshot, the target, and Accept, Accept-Encoding and Accept-Language as the router
// reads them (their first line each), and on nothing else of the request. A published document's
// body stays the document's; a computed body is held by the store, at most max_computed_bytes of
// them, or by its memory file alone (below). An answer goes stale when its document is gone, and at
// the turn of the second its head's Date names. A new snapshot empties the store.
//
// A POST whose headers fit the same bound and whose body fits max_message_bytes qualifies too: its
// key adds the headers an MCP reply depends on (message_fields in the .cpp: Host, Origin,
// Content-Type and MCP's own, each with whether it was sent at all) and the body, and only a
// message's answer the handler marks (payload::mark_message_answer: a lone message answered without
// failure, not a batch) is kept, from the second time it is asked. Touched by one event loop only.
class stored_answers {
public:
    struct stored {
        std::string head;                 // status line and headers, as written the first time
        std::weak_ptr<const void> owner;  // the document that owns `body`, `held`, or `file`
        std::shared_ptr<const void> held;  // a computed answer's body, which nothing else keeps
        // The body of a 200 (no other answer is kept), empty when `file` alone holds it.
        std::string_view body;
        std::size_t body_size = 0;
        std::string_view route;  // for the metrics: a pattern of the route table
        mcp::tool_call counted;  // an MCP message's tool call, counted again at each replay
        std::int64_t second = 0;  // the one its head's Date names: replayed within it only
        bool message = false;     // an MCP message's reply
        // The head and the body in a memory file, for an answer of file_threshold bytes or more.
        std::shared_ptr<const memory_file> file;
    };
    // A stored answer and its document, held while the answer is written.
    struct found {
        stored const* answer;
        std::shared_ptr<const void> owner;
    };
    // What find learnt of a request, for keep: the stored answer, if any, and which key it built,
    // so that a request's key is built and hashed once.
    struct lookup {
        std::optional<found> hit;
        std::uint64_t key = 0;     // the number of the key built for it (key_serial_), 0 if none
        bool sends_files = false;  // whether the connection can send from a memory file
    };

    // `date` is the one every head of the loop is written with: an answer is replayed only within
    // the second its Date names, so a stored head never tells an old time.
    explicit stored_answers(date_field& date) : date_(date) {}

    static constexpr std::size_t max_answers = 256;    // then the store starts again, empty
    // A question whose target and headers are longer is answered afresh, and so is a message (POST)
    // with a longer body.
    static constexpr std::size_t max_key_bytes = 1024;
    static constexpr std::size_t max_message_bytes = 1024;
    // The computed bodies held, per event loop; past it the store starts again, and a larger answer
    // is never kept. Many distinct questions then cost what they cost without the store.
    static constexpr std::size_t max_computed_bytes = 4 * 1024 * 1024;
    // An answer this long (head and body) is also kept in a memory file and sent from it with
    // sendfile: past about 16 KiB, copying it into the socket cost a third more CPU than handing the
    // kernel the file's pages (tests/bench, row "/v1/prices/{gpu}/history"), below it no less. At
    // most max_files files and max_file_bytes bytes per event loop, like nginx's open_file_cache.
    static constexpr std::size_t file_threshold = 16 * 1024;
    static constexpr std::size_t max_files = 64;
    static constexpr std::size_t max_file_bytes = 16 * 1024 * 1024;

    // The stored answer to `req` on `snapshot`, if any, for a connection that can send from a memory
    // file or not (then an answer only a file holds is not found).
    lookup find(request const& req, std::shared_ptr<const snapshot::snapshot> const& snapshot, bool sends_files);

    // Keeps `res` (whose head was written as `head`) as the answer to `req` on `snapshot`, when both
    // qualify; `asked` is what find said of `req` just before, with nothing else looked up since.
    // An answer a memory file holds is not also kept in memory for a connection that sends files.
    void keep(request const& req, lookup const& asked, std::shared_ptr<const snapshot::snapshot> const& snapshot,
              response const& res, std::string_view route, std::string_view head);

    // A memory file holding `bytes`, which `owner` keeps unchanged at that address while it lives (the
    // end of an MCP reply, payload::end_with): made on the first ask, then the same one. Null when
    // `bytes` is shorter than file_threshold or no file can be made. At most max_lasting_files.
    std::shared_ptr<const memory_file> lasting_file(std::shared_ptr<const void> const& owner, std::string_view bytes);
    static constexpr std::size_t max_lasting_files = 8;

    std::size_t size() const { return answers_.size(); }
    std::size_t files() const { return files_ + lasting_files_.size(); }
    std::size_t held_bytes() const { return computed_bytes_; }  // of max_computed_bytes

private:
    // The key of a qualifying request into key_ and its hash into key_hash_, numbered anew in
    // key_serial_; false when it does not qualify.
    bool key_of(request const& req);
    bool same_snapshot(std::shared_ptr<const snapshot::snapshot> const& snapshot) const;
    // Whether key_ was asked before (a message's answer is stored only then); it is noted if not.
    bool asked_before();
    void note_asked();  // key_ was asked once (at most max_answers such keys are remembered)
    void forget(stored const& answer);  // its file's and its held body's share of the budgets
    void clear();

    // A stored answer's key, and the key of a request looked up, each with its hash, computed once.
    struct stored_key {
        std::string text;
        std::size_t hash;
    };
    struct key_view {
        std::string_view text;
        std::size_t hash;
    };
    struct key_hash {
        using is_transparent = void;
        template <class Key>
        std::size_t operator()(Key const& key) const { return key.hash; }
    };
    struct key_equal {
        using is_transparent = void;
        template <class A, class B>
        bool operator()(A const& a, B const& b) const
        {
            return a.hash == b.hash && std::string_view(a.text) == std::string_view(b.text);
        }
    };
    key_view key() const { return {key_, key_hash_}; }
    // The body kept in memory, unless it is computed and `file` holds it (only a connection that
    // sends files gets one): a message's reply copied whole, or the body's own bytes.
    void hold_body(stored& answer, payload const& body, bool message, bool computed);

    date_field& date_;
    std::weak_ptr<const snapshot::snapshot> snapshot_;
    std::unordered_map<stored_key, stored, key_hash, key_equal> answers_;
    // Files of answers no longer stored that a connection may still be sending (a slow reader holds
    // its answer's file as long as it reads): they count against max_files and max_file_bytes until
    // the last holder lets go, so emptying the store never lets files grow with the connections.
    struct retired {
        std::weak_ptr<const memory_file> file;
        std::size_t bytes;
    };
    std::vector<retired> retired_;
    void count_released_files();  // takes off the counts the retired files nobody holds
    std::string key_;  // reused for every lookup, so a lookup allocates nothing
    std::size_t key_hash_ = 0;
    std::uint64_t key_serial_ = 0;
    // The hashes of the messages asked once and not stored yet, at most max_answers of them.
    std::unordered_set<std::size_t> asked_once_;
    std::size_t files_ = 0;
    std::size_t file_bytes_ = 0;
    std::size_t computed_bytes_ = 0;
    struct lasting {
        std::weak_ptr<const void> owner;
        std::size_t size;
        std::shared_ptr<const memory_file> file;
    };
    std::unordered_map<char const*, lasting> lasting_files_;
};

}
