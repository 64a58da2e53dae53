// lowcostgpu: the command line of the pricing service (see README.md and `lowcostgpu --help`). Each
// command is a file of server/cli/; this finds it, and turns what it throws into an exit code.
#include "server/cli/commands.hpp"
#include "server/cli/usage.hpp"

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace lcg::cli;

struct command {
    std::string_view name;
    int (*run)(arguments const&);
    std::vector<std::string_view> switches;  // its flags that take no value
};

// Built on first use, not during static initialisation.
std::vector<command> const& commands()
{
    static std::vector<command> const all = {
        {"migrate", run_migrate, {}},
        {"import-observations", run_import_observations, {}},
        {"import-listings", run_import_listings, {"json"}},
        {"collect", run_collect, {"json"}},
        {"export-inputs", run_export_inputs, {}},
        {"publish", run_publish, {"replace", "unsigned"}},
        {"sign", run_sign, {"all", "resign"}},
        {"public-key", run_public_key, {}},
        {"audit", run_audit, {"all"}},
        {"mcp", run_mcp, {}},
        {"serve", run_serve, {}},
    };
    return all;
}

}

int main(int argc, char** argv)
{
    std::string const command = argc > 1 ? argv[1] : "";
    try {
        for (auto const& c : commands())
            if (command == c.name)
                return c.run(parse_arguments(argc, argv, c.switches));
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << usage_text();
            return 0;
        }
        std::cerr << (command.empty() ? "" : "unknown command '" + command + "'\n\n") << usage_text();
        return 2;
    } catch (usage_error const& e) {
        std::cerr << "lowcostgpu " << command << ": " << e.what() << "\n";
        return 2;
    } catch (std::exception const& e) {
        std::cerr << "lowcostgpu " << command << ": " << e.what() << "\n";
        return 1;
    }
}
