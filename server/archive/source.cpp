// The inputs as PostgreSQL stores them: one connection per archive thread (a mirror's source, over
// its upstream, is mirror::upstream::inputs_sources).
#include "server/archive/source.hpp"

#include "server/store/database.hpp"

namespace lcg::archive {

namespace {

// One archive thread's connection to PostgreSQL: opened when first needed, dropped after a failure
// so the next read opens a new one.
class database_source final : public source {
public:
    database_source(std::string url, std::chrono::milliseconds timeout) : url_(std::move(url)), timeout_(timeout) {}

    pricing::input_layout layout(pricing::price_sheet const& sheet) override
    {
        return with_database<pricing::input_layout>(
            [&](store::database& db) { return db.load_input_layout(sheet.week, sheet.inputs_sha256); });
    }

    std::string chunk(pricing::price_sheet const& sheet, std::size_t seq) override
    {
        return with_database<std::string>(
            [&](store::database& db) { return db.load_input_chunk(sheet.week, sheet.inputs_sha256, seq); });
    }

    std::vector<pricing::raw_input> raw_inputs(pricing::price_sheet const& sheet) override
    {
        return with_database<std::vector<pricing::raw_input>>(
            [&](store::database& db) { return db.load_raw_inputs(sheet.week); });
    }

    std::optional<std::string> raw_bytes(pricing::price_sheet const&, std::string const& sha256) override
    {
        return with_database<std::optional<std::string>>(
            [&](store::database& db) { return db.load_raw_bytes(sha256); });
    }

private:
    template <class T>
    T with_database(std::function<T(store::database&)> const& read)
    {
        try {
            if (!db_)
                db_ = std::make_unique<store::database>(url_, store::connection_limits{timeout_, timeout_});
            return read(*db_);
        } catch (...) {
            db_.reset();  // a new connection next time; the archive logs the failure
            throw;
        }
    }

    std::string url_;
    std::chrono::milliseconds timeout_;
    std::unique_ptr<store::database> db_;
};

}

source_factory database_sources(std::string database_url, std::chrono::milliseconds timeout)
{
    return [database_url, timeout]() -> std::unique_ptr<source> {
        return std::make_unique<database_source>(database_url, timeout);
    };
}

}
