// The connection: opening it, the migrations, the round trip that checks it, and the change
// notifications the refreshers wait on. Each use case has a file of its own (session.hpp).
#include "server/store/database.hpp"

#include "server/store/session.hpp"

#include <algorithm>
#include <thread>
#include <utility>

namespace lcg::store {

database::database(std::string const& url, connection_limits limits)
    : impl_(guarded("connecting to PostgreSQL", [&] { return std::make_unique<impl>(url, limits); }))
{
}

database::~database() = default;

std::vector<std::string> database::migrate(std::span<const embedded_file> migrations)
{
    return guarded("migrating", [&] {
        std::vector<embedded_file> ordered(migrations.begin(), migrations.end());
        std::sort(ordered.begin(), ordered.end(), [](auto const& a, auto const& b) { return a.name < b.name; });
        std::vector<std::string> applied;
        for (auto const& m : ordered) {
            pqxx::work tx(impl_->conn);
            tx.exec("CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, "
                    "applied_at timestamptz NOT NULL DEFAULT now())");
            // Two migrate runs at once must not both apply a file. A table lock, not an advisory one:
            // the reader may only take ACCESS SHARE here, which does not conflict, while any role can
            // take any advisory lock. (Two very first runs may still race on the CREATE and one fail.)
            tx.exec("LOCK TABLE schema_migration IN SHARE ROW EXCLUSIVE MODE");
            if (!tx.exec_params("SELECT 1 FROM schema_migration WHERE name = $1", std::string(m.name)).empty())
                continue;
            tx.exec(std::string(m.content));
            tx.exec_params("INSERT INTO schema_migration (name) VALUES ($1)", std::string(m.name));
            tx.commit();
            applied.emplace_back(m.name);
        }
        return applied;
    });
}

void database::check()
{
    guarded("checking the connection", [&] {
        pqxx::nontransaction tx(impl_->conn);
        tx.exec("SELECT 1");
    });
}

bool database::listen_for_changes()
{
    return guarded("listening", [&] {
        if (impl_->receiver)
            return true;
        try {
            impl_->receiver = std::make_unique<change_receiver>(impl_->conn);
            return true;
        } catch (pqxx::sql_error const&) {
            // A hot standby refuses LISTEN (SQLSTATE 25006): its readers fall back to polling.
            return false;
        }
    });
}

bool database::wait_for_change(std::chrono::milliseconds timeout)
{
    return guarded("waiting for changes", [&] {
        if (!impl_->receiver) {
            std::this_thread::sleep_for(timeout);
            return false;
        }
        // The flag is taken, not cleared before waiting: libpqxx also hands notifications to the
        // receiver after a query run outside a transaction, and one received then is a change too.
        if (!impl_->receiver->received) {
            auto const us = std::chrono::duration_cast<std::chrono::microseconds>(timeout).count();
            impl_->conn.await_notification(static_cast<long>(us / 1'000'000), static_cast<long>(us % 1'000'000));
        }
        return std::exchange(impl_->receiver->received, false);
    });
}

}
