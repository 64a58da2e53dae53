#include "mcp/stdio.hpp"

#include "mcp/resources.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <condition_variable>
#include <istream>
#include <mutex>
#include <ostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

// What a client sees of the published sheets: a sheet's URI, and whether it was published again.
std::vector<std::string> sheet_identities(data_view const& data)
{
    std::vector<std::string> out;
    for (auto const& s : data.sheets())
        out.push_back(pricing::to_string(s.week) + " " + pricing::to_rfc3339(s.published_at) + " " + s.inputs_sha256);
    return out;
}

std::string contents_of(std::string_view uri, data_view const& data)
{
    auto contents = read_resource(uri, data, false);
    return contents ? json::serialize(*contents) : std::string();
}

// The session's state shared by the reader (this thread) and the announcer.
class session {
public:
    session(std::function<std::shared_ptr<const server>()> const& current, std::ostream& out, std::ostream* log)
        : current_(current), out_(out), log_(log), seen_(current())
    {
    }

    void write_line(std::string_view line)
    {
        std::lock_guard lock(out_mutex_);
        out_ << line << '\n' << std::flush;
    }

    // Answers one message and records a subscription it made or ended.
    void answer(std::string_view message)
    {
        // Held while its reply is written: the reply's end may be text the server keeps, and a
        // newer snapshot may replace it meanwhile.
        auto const server = current_();
        auto const answer = server->handle(message, {});
        if (!answer.empty())
            write_line(answer.text());
        for (auto const& failure : answer.failures)
            if (log_)
                *log_ << json::serialize(json::object{{"event", "caught_exception"}, {"where", "mcp"}, {"detail", failure}})
                      << std::endl;
        std::lock_guard lock(state_mutex_);
        // Announcements go to a client of the revisions that have them, known by its initialize or
        // a subscription (server_capabilities): never to one that speaks 2026-07-28 only.
        spoken_ = spoken_ || answer.initialized || !answer.subscriptions.empty();
        for (auto const& change : answer.subscriptions)
            if (change.subscribed)
                subscribed_.insert_or_assign(change.canonical, change.uri);
            else
                subscribed_.erase(change.canonical);
    }

    // Announces what changed since the data last seen; called by the announcer only.
    void announce_changes()
    {
        auto const now = current_();
        std::map<std::string, std::string> uris;
        {
            std::lock_guard lock(state_mutex_);
            if (!spoken_)
                seen_ = now;  // what a client that has not spoken yet will read is news to nobody
            if (now == seen_)
                return;
            uris = subscribed_;
        }
        auto const& before = seen_->data();
        auto const& after = now->data();
        if (sheet_identities(before) != sheet_identities(after))
            write_line(R"({"jsonrpc":"2.0","method":"notifications/resources/list_changed"})");
        for (auto const& [canonical, uri] : uris)
            if (contents_of(canonical, before) != contents_of(canonical, after))
                write_line(json::serialize(json::object{{"jsonrpc", "2.0"},
                                                        {"method", "notifications/resources/updated"},
                                                        {"params", {{"uri", uri}}}}));
        seen_ = now;
    }

private:
    std::function<std::shared_ptr<const server>()> const& current_;
    std::ostream& out_;
    std::ostream* log_;
    std::mutex out_mutex_;    // one line at a time, answers and notifications alike
    std::mutex state_mutex_;  // what follows
    // Canonical URI → the spelling the client last subscribed with: at most one entry per resource
    // that exists, however many spellings a client sends.
    std::map<std::string, std::string> subscribed_;
    bool spoken_ = false;     // nothing is announced before the client's initialize or subscription
    std::shared_ptr<const server> seen_;  // the announcer's own
};

}

void serve_stdio(std::function<std::shared_ptr<const server>()> const& current, std::istream& in, std::ostream& out,
                 std::ostream* log, std::chrono::milliseconds interval)
{
    session s(current, out, log);
    std::mutex stop_mutex;
    std::condition_variable stop_signal;
    bool stopping = false;
    std::thread announcer([&] {
        std::unique_lock lock(stop_mutex);
        while (!stop_signal.wait_for(lock, interval, [&] { return stopping; })) {
            lock.unlock();
            s.announce_changes();
            lock.lock();
        }
    });

    std::streambuf* const source = in.rdbuf();
    std::string line;
    bool too_long = false;
    bool done = false;
    while (!done && out) {
        int const c = source->sbumpc();
        if (c != std::char_traits<char>::eof() && c != '\n') {
            if (line.size() < max_message_bytes)
                line += static_cast<char>(c);
            else
                too_long = true;
            continue;
        }
        done = c == std::char_traits<char>::eof();
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::string_view message = line;
        while (!message.empty() && (message.front() == ' ' || message.front() == '\t'))
            message.remove_prefix(1);
        if (too_long)
            s.write_line(error_response(nullptr, too_large()));
        else if (!message.empty())
            s.answer(message);
        line.clear();
        too_long = false;
    }
    {
        std::lock_guard lock(stop_mutex);
        stopping = true;
    }
    stop_signal.notify_all();
    announcer.join();
}

}
