// The catalog: the models with their MIG profiles and CPU generations, the regions, the inventory
// and the market's sources.
#include "server/store/database.hpp"

#include "server/store/session.hpp"

namespace lcg::store {

namespace {

std::vector<std::string> parse_text_array(std::string const& literal)
{
    // Our arrays hold simple tokens ("v6"), so PostgreSQL prints them unquoted: {v6,v7}.
    std::vector<std::string> out;
    std::string item;
    for (char c : literal) {
        if (c == '{' || c == '"')
            continue;
        if (c == ',' || c == '}') {
            if (!item.empty())
                out.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    return out;
}

std::optional<pricing::figure> optional_figure(pqxx::field const& f)
{
    if (f.is_null())
        return std::nullopt;
    return pricing::parse_figure(f.c_str());
}

}

// The catalog as `tx` sees it.
pricing::catalog catalog_in(pqxx::transaction_base& tx)
{
    pricing::catalog cat;
    for (auto const& r : tx.exec(
             "SELECT id, name, vendor, architecture, form_factor, vram_gb, memory_type, memory_bandwidth_gbs, "
             "fp16_dense_tflops, fp8_dense_tflops, tdp_w, interconnect_gbs, "
             "mig_max_instances, sm_count, source, notes, max_gpus_per_instance, max_vcpus, max_memory_gib, "
             "cpu_generations, coalesce(interconnect_kind, '') FROM gpu_model ORDER BY id")) {
        pricing::gpu_model g;
        g.id = r[0].as<std::string>();
        g.name = r[1].as<std::string>();
        g.vendor = r[2].as<std::string>();
        g.architecture = r[3].as<std::string>();
        g.form_factor = r[4].as<std::string>();
        g.vram_gb = r[5].as<int>();
        g.memory_type = r[6].as<std::string>();
        g.memory_bandwidth_gbs = r[7].as<int>();
        g.fp16_dense_tflops = pricing::parse_figure(r[8].c_str());
        g.fp8_dense_tflops = optional_figure(r[9]);
        g.tdp_w = pricing::parse_figure(r[10].c_str());
        g.interconnect_gbs = optional_figure(r[11]);
        g.interconnect_kind = r[20].as<std::string>();
        g.mig_max_instances = r[12].as<int>();
        g.sm_count = r[13].as<int>();
        g.source = r[14].as<std::string>();
        g.notes = r[15].as<std::string>();
        g.max_gpus_per_instance = r[16].as<int>();
        g.max_vcpus = r[17].as<int>();
        g.max_memory_gib = r[18].as<int>();
        g.cpu_generations = parse_text_array(r[19].as<std::string>());
        cat.gpus.push_back(std::move(g));
    }
    for (auto const& r : tx.exec("SELECT gpu, name, memory_gb, compute_slices, max_instances FROM mig_profile "
                                 "ORDER BY gpu, compute_slices, memory_gb, name")) {
        auto* g = const_cast<pricing::gpu_model*>(cat.find(r[0].c_str()));
        if (g)
            g->mig_profiles.push_back({r[1].as<std::string>(), r[2].as<int>(), r[3].as<int>(), r[4].as<int>()});
    }
    for (auto const& r : tx.exec("SELECT gpu, region, available_gpus FROM inventory ORDER BY gpu, region"))
        cat.inventory.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<int>()});
    for (auto const& r : tx.exec("SELECT code, city, country, continent, sovereign FROM region ORDER BY code"))
        cat.regions.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                               r[3].as<std::string>(), r[4].as<bool>()});
    for (auto const& r : tx.exec("SELECT gpu, region, array_agg(cpu_generation ORDER BY cpu_generation)::text "
                                 "FROM gpu_region_cpu_generation GROUP BY gpu, region ORDER BY gpu, region")) {
        auto* g = const_cast<pricing::gpu_model*>(cat.find(r[0].c_str()));
        if (g)
            g->extra_cpu_generations.push_back({r[1].as<std::string>(), parse_text_array(r[2].as<std::string>())});
    }
    for (auto const& r : tx.exec("SELECT name, kind, homepage, format FROM market_source ORDER BY name"))
        cat.sources.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                               r[3].as<std::string>()});
    // Every region offers every model, at the same price.
    for (auto& g : cat.gpus)
        for (auto const& region : cat.regions)
            g.regions.push_back(region.code);
    return cat;
}

pricing::catalog database::load_catalog()
{
    return guarded("loading the catalog", [&] {
        pqxx::read_transaction tx(impl_->conn);
        return catalog_in(tx);
    });
}

}
