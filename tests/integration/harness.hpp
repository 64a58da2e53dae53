#pragma once

// Helpers for integration tests: a fresh database per test, the real binary run as a child process,
// and a small HTTP client over loopback. The environment comes from deploy/test; without it the
// tests fail and say how to run them.

#include "pricing/calendar.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lcg::testing {

std::string required_env(char const* name);

// The ISO week containing now, and its name ("2026-W49"): the sample data ends in it.
pricing::iso_week current_week();
std::string this_week();

// A database copied from the sample template (migrated, sample observations, sample sheets),
// dropped again at the end of the test.
class test_database {
public:
    test_database();
    ~test_database();
    test_database(test_database const&) = delete;
    test_database& operator=(test_database const&) = delete;

    std::string const& name() const { return name_; }
    std::string url(std::string const& role) const;  // role: owner, publisher, reader
    std::string admin_url() const;
    long count(std::string const& table) const;
    void exec(std::string const& sql) const;  // as admin

private:
    std::string name_;
};

struct command_result {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// Runs the lowcostgpu binary with `args`, feeding `input` on standard input.
command_result run_lowcostgpu(std::vector<std::string> const& args, std::string const& input = {});

struct http_reply {
    int status = 0;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
    std::string header(std::string const& name) const;
};

http_reply http_request(unsigned short port, std::string const& method, std::string const& target,
                        std::map<std::string, std::string> const& headers = {}, std::string const& body = {});

// The arguments of a `lowcostgpu serve` that reads no database (a mirror): run without DATABASE_URL.
struct serve_arguments {
    std::vector<std::string> args;
};

// `lowcostgpu serve` on 127.0.0.1:0 as the reader role; by default waits until /readyz answers 200.
class server_process {
public:
    explicit server_process(std::string const& database_url, std::vector<std::string> const& extra_args = {},
                            bool wait_until_ready = true);
    explicit server_process(serve_arguments const& arguments, bool wait_until_ready = true);
    ~server_process();
    unsigned short port() const { return port_; }
    http_reply get(std::string const& target, std::map<std::string, std::string> const& headers = {}) const;
    int terminate();  // SIGTERM and wait: the exit code
    // SIGTERM and wait at most `limit`: the exit code, or nothing when it had to be killed (SIGKILL).
    std::optional<int> terminate_within(std::chrono::milliseconds limit);
    std::string output() const;  // what it has written to standard output so far
    // A sample of its /metrics by its name as written there, labels included ("name 12",
    // "name{route=\"/x\"} 12"), or -1.
    long metric(std::string const& name) const;

private:
    int pid_ = -1;
    unsigned short port_ = 0;
    std::string out_path_;
};

// The binary started with a pipe on its standard input, for conversations (`lowcostgpu mcp`):
// send() writes a line; the destructor ends the input and waits for the process.
class stdio_process {
public:
    // `unset_env`: variables the child must not see (DATABASE_URL for a mirror).
    explicit stdio_process(std::vector<std::string> const& args, std::vector<std::string> const& unset_env = {});
    ~stdio_process();
    stdio_process(stdio_process const&) = delete;
    stdio_process& operator=(stdio_process const&) = delete;

    void send(std::string const& line);
    std::string output() const;  // its standard output so far

private:
    int pid_ = -1;
    int input_ = -1;
    std::string fifo_path_;
    std::string out_path_;
};

// The binary started in the background (its output discarded), killed at the end if still running.
class background_command {
public:
    explicit background_command(std::vector<std::string> const& args);
    ~background_command();
    void kill_now();  // SIGKILL, as a crash or an OOM kill would

private:
    int pid_ = -1;
};

// A raw HTTP server on 127.0.0.1:0 for tests that need a misbehaving or tampering upstream. Each
// request is handed to `answer` (target and lower-case headers) on the server's own thread, one at
// a time; it returns the raw bytes to send before closing, or nothing to stall: the connection is
// then held open, unanswered, until the server is destroyed.
class fake_upstream {
public:
    using handler = std::function<std::optional<std::string>(std::string const& target,
                                                              std::map<std::string, std::string> const& headers)>;
    explicit fake_upstream(handler answer);
    ~fake_upstream();
    unsigned short port() const;
    std::string url() const;  // http://127.0.0.1:PORT

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// A raw HTTP/1.1 response with a body and the given extra header lines ("ETag: \"x\"").
std::string raw_response(int status, std::string const& body, std::vector<std::string> const& headers = {});

// A tampering upstream in front of `origin`: each GET is forwarded, and its answer's status,
// Content-Type and body sent back once `edit` has changed the body as it likes (given the target).
fake_upstream editing_proxy(server_process const& origin,
                            std::function<void(std::string const& target, std::string& body)> edit);

// A path under /tmp that no other test of this process uses, named after `what`.
std::string scratch_path(std::string const& what);

// The output of a shell command and its exit status (of pclose).
struct shell_result {
    int status = -1;
    std::string out;
};
shell_result run_shell(std::string const& command);

// ../shared beside the checkout (LCG_SHARED_DIR overrides): the test inputs, never copied in.
std::string shared_dir();
// The SkyPilot catalog folder of ../shared: one <source>/vms.csv per market source.
std::string market_catalog_dir();

// Polls `condition` every 50 ms until it holds or `limit` passes.
template <class F>
bool eventually(F&& condition, std::chrono::milliseconds limit)
{
    auto const deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition())
            return true;
        struct timespec ts{0, 50'000'000};
        nanosleep(&ts, nullptr);
    }
    return condition();
}

}
