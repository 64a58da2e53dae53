// lowcostgpu migrate: the database migrations and reference data, applied in order.
#include "server/cli/commands.hpp"
#include "server/store/database.hpp"

#include <iostream>
#include <span>

namespace lcg::migrations {
std::span<const embedded_file> all();
}

namespace lcg::cli {

int run_migrate(arguments const& args)
{
    allow_only(args, {"database-url"}, 0);
    store::database db(database_url(args));
    auto const applied = db.migrate(migrations::all());
    for (auto const& name : applied)
        std::cout << "applied " << name << "\n";
    std::cout << (applied.empty() ? "database is up to date\n" : "migrations done\n");
    return 0;
}

}
