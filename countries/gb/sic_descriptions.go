// Code generated from the sic_descriptions table of Companies House's
// api-enumerations constants.yml (testdata/enumerations/constants.yml);
// TestSICDescriptionsMatchEnumerations keeps it in step. DO NOT EDIT.

package gb

// sicDescription returns Companies House's English description of a SIC
// code: the five-digit codes are UK SIC 2007, the four-digit ones UK SIC 2003.
func sicDescription(code string) (string, bool) {
	switch code {
	case "0111":
		return "Grow cereals & other crops", true
	case "0112":
		return "Grow vegetables & nursery products", true
	case "0113":
		return "Grow fruit, nuts, beverage & spice crops", true
	case "0121":
		return "Farming of cattle, dairy farming", true
	case "0122":
		return "Farm sheep, goats, horses, etc.", true
	case "0123":
		return "Farming of swine", true
	case "0124":
		return "Farming of poultry", true
	case "0125":
		return "Other farming of animals", true
	case "0130":
		return "Crops combined with animals, mixed farms", true
	case "0141":
		return "Agricultural service activities", true
	case "0142":
		return "Animal husbandry services, not vets", true
	case "0150":
		return "Hunting and game rearing inc. services", true
	case "0201":
		return "Forestry & logging", true
	case "0202":
		return "Forestry & logging related services", true
	case "0501":
		return "Fishing", true
	case "0502":
		return "Operation of fish hatcheries & farms", true
	case "1010":
		return "Mining & agglomeration of hard coal", true
	case "1020":
		return "Mining and agglomeration of lignite", true
	case "1030":
		return "Extraction and agglomeration of peat", true
	case "1110":
		return "Extraction petroleum & natural gas", true
	case "1120":
		return "Services to oil and gas extraction", true
	case "1200":
		return "Mining of uranium & thorium ores", true
	case "1310":
		return "Mining of iron ores", true
	case "1320":
		return "Mining non-ferrous metal ores", true
	case "1411":
		return "Quarrying of stone for construction", true
	case "1412":
		return "Quarry of limestone, gypsum & chalk", true
	case "1413":
		return "Quarrying of slate", true
	case "1421":
		return "Operation of gravel and sand pits", true
	case "1422":
		return "Mining of clays and kaolin", true
	case "1430":
		return "Mine chemical & fertiliser minerals", true
	case "1440":
		return "Production of salt", true
	case "1450":
		return "Other mining and quarrying", true
	case "1511":
		return "Production and preserving of meat", true
	case "1512":
		return "Production & preserve poultry meat", true
	case "1513":
		return "Production meat & poultry products", true
	case "1520":
		return "Process & preserve fish & products", true
	case "1531":
		return "Processing & preserve potatoes", true
	case "1532":
		return "Manufacture of fruit & vegetable juice", true
	case "1533":
		return "Process etc. fruit, vegetables", true
	case "1541":
		return "Manufacture of crude oils and fats", true
	case "1542":
		return "Manufacture of refined oils & fats", true
	case "1543":
		return "Manufacture margarine & similar edible fats", true
	case "1551":
		return "Operation dairies & cheese making", true
	case "1552":
		return "Manufacture of ice cream", true
	case "1561":
		return "Manufacture of grain mill products", true
	case "1562":
		return "Manufacture of starches & starch products", true
	case "1571":
		return "Manufacture of prepared farm animal feeds", true
	case "1572":
		return "Manufacture of prepared pet foods", true
	case "1581":
		return "Manufacture of bread, fresh pastry & cakes", true
	case "1582":
		return "Manufacture biscuits, preserved pastry etc.", true
	case "1583":
		return "Manufacture of sugar", true
	case "1584":
		return "Manufacture cocoa, chocolate, confectionery", true
	case "1585":
		return "Manufacture macaroni & similar farinaceous", true
	case "1586":
		return "Processing of tea and coffee", true
	case "1587":
		return "Manufacture of condiments & seasonings", true
	case "1588":
		return "Manufacture of homogenised & dietetic food", true
	case "1589":
		return "Manufacture of other food products", true
	case "1591":
		return "Manufacture distilled potable alcoholic drinks", true
	case "1592":
		return "Ethyl alcohol fermented materials", true
	case "1593":
		return "Manufacture of wines", true
	case "1594":
		return "Manufacture of cider & other fruit wines", true
	case "1595":
		return "Manufacture other non-distilled fermented drinks", true
	case "1596":
		return "Manufacture of beer", true
	case "1597":
		return "Manufacture of malt", true
	case "1598":
		return "Produce mineral water, soft drinks", true
	case "1600":
		return "Manufacture of tobacco products", true
	case "1711":
		return "Prepare & spin cotton-type fibres", true
	case "1712":
		return "Prepare & spin woollen-type fibres", true
	case "1713":
		return "Prepare & spin worsted-type fibres", true
	case "1714":
		return "Preparation & spin flax-type fibres", true
	case "1715":
		return "Throw & prepare silk, synthetic etc.", true
	case "1716":
		return "Manufacture of sewing threads", true
	case "1717":
		return "Preparation & spin of other textiles", true
	case "1721":
		return "Cotton-type weaving", true
	case "1722":
		return "Woollen-type weaving", true
	case "1723":
		return "Worsted-type weaving", true
	case "1724":
		return "Silk-type weaving", true
	case "1725":
		return "Other textile weaving", true
	case "1730":
		return "Finishing of textiles", true
	case "1740":
		return "Manufacture made-up textiles, not apparel", true
	case "1751":
		return "Manufacture of carpet and rugs", true
	case "1752":
		return "Manufacture cordage, rope, twine & netting", true
	case "1753":
		return "Manufacture nonwovens & goods, not apparel", true
	case "1754":
		return "Manufacture of other textiles", true
	case "1760":
		return "Manufacture of knitted & crocheted fabrics", true
	case "1771":
		return "Manufacture of knitted & crocheted hosiery", true
	case "1772":
		return "Manufacture knit & crocheted pullovers, etc.", true
	case "1810":
		return "Manufacture of leather clothes", true
	case "1821":
		return "Manufacture of workwear", true
	case "1822":
		return "Manufacture of other outerwear", true
	case "1823":
		return "Manufacture of underwear", true
	case "1824":
		return "Manufacture other wearing apparel etc.", true
	case "1830":
		return "Dress & dye fur; manufacture fur articles", true
	case "1910":
		return "Tanning and dressing of leather", true
	case "1920":
		return "Manufacture of luggage & the like, saddlery", true
	case "1930":
		return "Manufacture of footwear", true
	case "2010":
		return "Sawmill, plane, impregnation wood", true
	case "2020":
		return "Manufacture of veneer sheets, plywood, etc.", true
	case "2030":
		return "Manufacture builders carpentry & joinery", true
	case "2040":
		return "Manufacture of wooden containers", true
	case "2051":
		return "Manufacture of other products of wood", true
	case "2052":
		return "Manufacture of articles of cork, straw etc.", true
	case "2111":
		return "Manufacture of pulp", true
	case "2112":
		return "Manufacture of paper & paperboard", true
	case "2121":
		return "Manufacture of cartons", true
	case "2122":
		return "Manufacture of household & toilet goods", true
	case "2123":
		return "Manufacture of paper stationery", true
	case "2124":
		return "Manufacture of wallpaper", true
	case "2125":
		return "Manufacture of paper & paperboard goods", true
	case "2211":
		return "Publishing of books", true
	case "2212":
		return "Publishing of newspapers", true
	case "2213":
		return "Publish journals & periodicals", true
	case "2214":
		return "Publishing of sound recordings", true
	case "2215":
		return "Other publishing", true
	case "2221":
		return "Printing of newspapers", true
	case "2222":
		return "Printing not elsewhere classified", true
	case "2223":
		return "Bookbinding and finishing", true
	case "2224":
		return "Pre-press activities", true
	case "2225":
		return "Ancillary printing operations", true
	case "2231":
		return "Reproduction of sound recording", true
	case "2232":
		return "Reproduction of video recording", true
	case "2233":
		return "Reproduction of computer media", true
	case "2310":
		return "Manufacture of coke oven products", true
	case "2320":
		return "Manufacture of refined petroleum products", true
	case "2330":
		return "Processing of nuclear fuel", true
	case "2411":
		return "Manufacture of industrial gases", true
	case "2412":
		return "Manufacture of dyes and pigments", true
	case "2413":
		return "Manufacture other inorganic basic chemicals", true
	case "2414":
		return "Manufacture other organic basic chemicals", true
	case "2415":
		return "Manufacture fertilisers, nitrogen compounds", true
	case "2416":
		return "Manufacture of plastics in primary forms", true
	case "2417":
		return "Manufacture synthetic rubber primary forms", true
	case "2420":
		return "Manufacture of pesticides & agro-chemicals", true
	case "2430":
		return "Manufacture of paints, print ink & mastics etc.", true
	case "2441":
		return "Manufacture of basic pharmaceutical prods", true
	case "2442":
		return "Manufacture of pharmaceutical preparations", true
	case "2451":
		return "Manufacture soap & detergents, polishes etc.", true
	case "2452":
		return "Manufacture perfumes & toilet preparations", true
	case "2461":
		return "Manufacture of explosives", true
	case "2462":
		return "Manufacture of glues and gelatines", true
	case "2463":
		return "Manufacture of essential oils", true
	case "2464":
		return "Manufacture photograph chemical material", true
	case "2465":
		return "Manufacture of prepared unrecorded media", true
	case "2466":
		return "Manufacture of other chemical products", true
	case "2470":
		return "Manufacture of man-made fibres", true
	case "2511":
		return "Manufacture of rubber tyres & tubes", true
	case "2512":
		return "Retread & rebuild rubber tyres", true
	case "2513":
		return "Manufacture of other rubber products", true
	case "2521":
		return "Manufacture of plastic plates, sheets, etc.", true
	case "2522":
		return "Manufacture of plastic pack goods", true
	case "2523":
		return "Manufacture of builders ware of plastic", true
	case "2524":
		return "Manufacture of other plastic products", true
	case "2611":
		return "Manufacture of flat glass", true
	case "2612":
		return "Shaping & process of flat glass", true
	case "2613":
		return "Manufacture of hollow glass", true
	case "2614":
		return "Manufacture of glass fibres", true
	case "2615":
		return "Manufacture other glass inc. technical", true
	case "2621":
		return "Manufacture of ceramic household etc. goods", true
	case "2622":
		return "Manufacture of ceramic sanitary fixtures", true
	case "2623":
		return "Manufacture of ceramic insulators etc.", true
	case "2624":
		return "Manufacture other technical ceramic goods", true
	case "2625":
		return "Manufacture of other ceramic products", true
	case "2626":
		return "Manufacture of refractory ceramic products", true
	case "2630":
		return "Manufacture of ceramic tiles & flags", true
	case "2640":
		return "Manufacture of bricks, etc. in baked clay", true
	case "2651":
		return "Manufacture of cement", true
	case "2652":
		return "Manufacture of lime", true
	case "2653":
		return "Manufacture of plaster", true
	case "2661":
		return "Manufacture concrete goods for construction", true
	case "2662":
		return "Manufacture plaster goods for construction", true
	case "2663":
		return "Manufacture of ready-mixed concrete", true
	case "2664":
		return "Manufacture of mortars", true
	case "2665":
		return "Manufacture of fibre cement", true
	case "2666":
		return "Manufacture other articles of concrete, etc.", true
	case "2670":
		return "Cutting, shaping & finish stone", true
	case "2681":
		return "Production of abrasive products", true
	case "2682":
		return "Manufacture other non-metal mineral", true
	case "2710":
		return "Manufacture of basic iron & steel & of Ferro-alloys", true
	case "2721":
		return "Manufacture of cast iron tubes", true
	case "2722":
		return "Manufacture of steel tubes", true
	case "2731":
		return "Cold drawing", true
	case "2732":
		return "Cold rolling of narrow strips", true
	case "2733":
		return "Cold forming or folding", true
	case "2734":
		return "Wire drawing", true
	case "2735":
		return "Other 1st process iron & steel", true
	case "2741":
		return "Precious metals production", true
	case "2742":
		return "Aluminium production", true
	case "2743":
		return "Lead, zinc and tin production", true
	case "2744":
		return "Copper production", true
	case "2745":
		return "Other non-ferrous metal production", true
	case "2751":
		return "Casting of iron", true
	case "2752":
		return "Casting of steel", true
	case "2753":
		return "Casting of light metals", true
	case "2754":
		return "Casting of other non-ferrous metals", true
	case "2811":
		return "Manufacture metal structures & parts", true
	case "2812":
		return "Manufacture builders carpentry of metal", true
	case "2821":
		return "Manufacture tanks, etc. & metal containers", true
	case "2822":
		return "Manufacture central heating rads & boilers", true
	case "2830":
		return "Manufacture steam generators, not boilers", true
	case "2840":
		return "Forge press stamp & roll form metal", true
	case "2851":
		return "Treatment and coat metals", true
	case "2852":
		return "General mechanical engineering", true
	case "2861":
		return "Manufacture of cutlery", true
	case "2862":
		return "Manufacture of tools", true
	case "2863":
		return "Manufacture of locks and hinges", true
	case "2871":
		return "Manufacture steel drums, similar containers", true
	case "2872":
		return "Manufacture of light metal packaging", true
	case "2873":
		return "Manufacture of wire products", true
	case "2874":
		return "Manufacture fasteners, screw, chains etc.", true
	case "2875":
		return "Manufacture other fabricated metal products", true
	case "2911":
		return "Manufacture engines, not aircraft, etc.", true
	case "2912":
		return "Manufacture of pumps & compressors", true
	case "2913":
		return "Manufacture of taps and valves", true
	case "2914":
		return "Manufacture bearings, gears, gear etc.", true
	case "2921":
		return "Manufacture of furnaces & furnace burners", true
	case "2922":
		return "Manufacture of lift & handling equipment", true
	case "2923":
		return "Manufacture non-domestic ventilation", true
	case "2924":
		return "Manufacture of other general machinery", true
	case "2931":
		return "Manufacture of agricultural tractors", true
	case "2932":
		return "Manufacture other agric. & forestry machines", true
	case "2940":
		return "Manufacture of machine tools", true
	case "2941":
		return "Manufacture of portable hand held power tools", true
	case "2942":
		return "Manufacture of metalworking tools", true
	case "2943":
		return "Manufacture of other machine tools not elsewhere classified", true
	case "2951":
		return "Manufacture of machinery for metallurgy", true
	case "2952":
		return "Manufacture machines for mining, quarry etc.", true
	case "2953":
		return "Manufacture for food, beverage & tobacco", true
	case "2954":
		return "Manufacture for textile, apparel & leather", true
	case "2955":
		return "Manufacture machinery for paper & board", true
	case "2956":
		return "Manufacture other special purpose machine", true
	case "2960":
		return "Manufacture of weapons & ammunition", true
	case "2971":
		return "Manufacture of electric domestic appliances", true
	case "2972":
		return "Manufacture non-electric domestic appliances", true
	case "3001":
		return "Manufacture of office machinery", true
	case "3002":
		return "Manufacture computers & process equipment", true
	case "3110":
		return "Manufacture electric motors, generators etc.", true
	case "3120":
		return "Manufacture electricity distribution etc.", true
	case "3130":
		return "Manufacture of insulated wire & cable", true
	case "3140":
		return "Manufacture of accumulators, batteries etc.", true
	case "3150":
		return "Manufacture lighting equipment & lamps", true
	case "3161":
		return "Manufacture electric equipment, engines etc.", true
	case "3162":
		return "Manufacture other electrical equipment", true
	case "3210":
		return "Manufacture of electronic components", true
	case "3220":
		return "Manufacture TV transmitters, telephony etc.", true
	case "3230":
		return "Manufacture TV & radio, sound or video etc.", true
	case "3310":
		return "Manufacture medical, orthopaedic etc. equipment", true
	case "3320":
		return "Manufacture instruments for measuring etc.", true
	case "3330":
		return "Manufacture indust process control equipment", true
	case "3340":
		return "Manufacture optical, photographic etc. equipment", true
	case "3350":
		return "Manufacture of watches and clocks", true
	case "3410":
		return "Manufacture of motor vehicles", true
	case "3420":
		return "Manufacture motor vehicle bodies etc.", true
	case "3430":
		return "Manufacture motor vehicle & engine parts", true
	case "3511":
		return "Building and repairing of ships", true
	case "3512":
		return "Build & repair pleasure & sport boats", true
	case "3520":
		return "Manufacture of railway locomotives & stock", true
	case "3530":
		return "Manufacture of aircraft & spacecraft", true
	case "3541":
		return "Manufacture of motorcycles", true
	case "3542":
		return "Manufacture of bicycles", true
	case "3543":
		return "Manufacture of invalid carriages", true
	case "3550":
		return "Manufacture other transport equipment", true
	case "3611":
		return "Manufacture of chairs and seats", true
	case "3612":
		return "Manufacture other office & shop furniture", true
	case "3613":
		return "Manufacture of other kitchen furniture", true
	case "3614":
		return "Manufacture of other furniture", true
	case "3615":
		return "Manufacture of mattresses", true
	case "3621":
		return "Striking of coins and medals", true
	case "3622":
		return "Manufacture of jewellery & related", true
	case "3630":
		return "Manufacture of musical instruments", true
	case "3640":
		return "Manufacture of sports goods", true
	case "3650":
		return "Manufacture of games and toys", true
	case "3661":
		return "Manufacture of imitation jewellery", true
	case "3662":
		return "Manufacture of brooms and brushes", true
	case "3663":
		return "Other manufacturing", true
	case "3710":
		return "Recycling of metal waste and scrap", true
	case "3720":
		return "Recycling non-metal waste & scrap", true
	case "4010":
		return "Production", true
	case "4011":
		return "Production of electricity", true
	case "4012":
		return "Transmission of electricity", true
	case "4013":
		return "Distribution & trade in electricity", true
	case "4020":
		return "Mfr of gas; mains distribution", true
	case "4021":
		return "Manufacture of gas", true
	case "4022":
		return "Distribution & trade of gaseous fuels through mains", true
	case "4030":
		return "Steam and hot water supply", true
	case "4100":
		return "Collection, purify etc. of water", true
	case "4511":
		return "Demolition buildings; earth moving", true
	case "4512":
		return "Test drilling and boring", true
	case "4521":
		return "General construction & civil engineer", true
	case "4522":
		return "Erection of roof covering & frames", true
	case "4523":
		return "Construction roads, airfields etc.", true
	case "4524":
		return "Construction of water projects", true
	case "4525":
		return "Other special trades construction", true
	case "4531":
		return "Installation electrical wiring etc.", true
	case "4532":
		return "Insulation work activities", true
	case "4533":
		return "Plumbing", true
	case "4534":
		return "Other building installation", true
	case "4541":
		return "Plastering", true
	case "4542":
		return "Joinery installation", true
	case "4543":
		return "Floor and wall covering", true
	case "4544":
		return "Painting and glazing", true
	case "4545":
		return "Other building completion", true
	case "4550":
		return "Rent construction equipment with operator", true
	case "5010":
		return "Sale of motor vehicles", true
	case "5020":
		return "Maintenance & repair of motors", true
	case "5030":
		return "Sale of motor vehicle parts etc.", true
	case "5040":
		return "Sale, repair etc. motorcycles & parts", true
	case "5050":
		return "Retail sale of automotive fuel", true
	case "5111":
		return "Agents agric & textile materials", true
	case "5112":
		return "Agents in sale of fuels, ores, etc.", true
	case "5113":
		return "Agents in building materials", true
	case "5114":
		return "Agents in industrial equipment, etc.", true
	case "5115":
		return "Agents in household goods, etc.", true
	case "5116":
		return "Agents in textiles, footwear etc.", true
	case "5117":
		return "Agents in food, drink & tobacco", true
	case "5118":
		return "Agents in particular products", true
	case "5119":
		return "Agents in sale of variety of goods", true
	case "5121":
		return "Wholesale of grain, animal feeds", true
	case "5122":
		return "Wholesale of flowers and plants", true
	case "5123":
		return "Wholesale of live animals", true
	case "5124":
		return "Wholesale hides, skins and leather", true
	case "5125":
		return "Wholesale of unmanufactured tobacco", true
	case "5131":
		return "Wholesale of fruit and vegetables", true
	case "5132":
		return "Wholesale of meat and meat products", true
	case "5133":
		return "Wholesale dairy products", true
	case "5134":
		return "Wholesale of alcohol and other drinks", true
	case "5135":
		return "Wholesale of tobacco products", true
	case "5136":
		return "Wholesale sugar, chocolate etc.", true
	case "5137":
		return "Wholesale coffee, tea, cocoa etc.", true
	case "5138":
		return "Wholesale other food inc fish, etc.", true
	case "5139":
		return "Non-specialised wholesale food, etc.", true
	case "5141":
		return "Wholesale of textiles", true
	case "5142":
		return "Wholesale of clothing and footwear", true
	case "5143":
		return "Wholesale electric household goods", true
	case "5144":
		return "Wholesale of china, wallpaper etc.", true
	case "5145":
		return "Wholesale of perfume and cosmetics", true
	case "5146":
		return "Wholesale of pharmaceutical goods", true
	case "5147":
		return "Wholesale of other household goods", true
	case "5151":
		return "Wholesale fuels & related products", true
	case "5152":
		return "Wholesale of metals and metal ores", true
	case "5153":
		return "Wholesale wood, construction etc.", true
	case "5154":
		return "Wholesale hardware, plumbing etc.", true
	case "5155":
		return "Wholesale of chemical products", true
	case "5156":
		return "Wholesale other intermediate goods", true
	case "5157":
		return "Wholesale of waste and scrap", true
	case "5161":
		return "Wholesale of machine tools", true
	case "5162":
		return "Wholesale of construction machinery", true
	case "5163":
		return "Wholesale textile industry machines", true
	case "5164":
		return "Wholesale office machinery & equip", true
	case "5165":
		return "Wholesale machines", true
	case "5166":
		return "Wholesale agric machines & tractors", true
	case "5170":
		return "Other wholesale", true
	case "5181":
		return "Wholesale of machine tools", true
	case "5182":
		return "Wholesale of mining", true
	case "5183":
		return "Wholesale of machinery for the textile industry", true
	case "5184":
		return "Wholesale of computers", true
	case "5185":
		return "Wholesale of other office machinery & equipment", true
	case "5186":
		return "Wholesale of other electronic parts & equipment", true
	case "5187":
		return "Wholesale of other machinery for use in industry", true
	case "5188":
		return "Wholesale of agricultural machinery & accessories & implements", true
	case "5190":
		return "Other wholesale", true
	case "5211":
		return "Retail in non-specialised stores holding an alcohol licence", true
	case "5212":
		return "Other retail non-specialised stores", true
	case "5221":
		return "Retail of fruit and vegetables", true
	case "5222":
		return "Retail of meat and meat products", true
	case "5223":
		return "Retail of fish, crustaceans etc.", true
	case "5224":
		return "Retail bread, cakes, confectionery", true
	case "5225":
		return "Retail alcoholic & other beverages", true
	case "5226":
		return "Retail sale of tobacco products", true
	case "5227":
		return "Other retail food etc. specialised", true
	case "5231":
		return "Dispensing chemists", true
	case "5232":
		return "Retail medical & orthopaedic goods", true
	case "5233":
		return "Retail cosmetic & toilet articles", true
	case "5241":
		return "Retail sale of textiles", true
	case "5242":
		return "Retail sale of clothing", true
	case "5243":
		return "Retail of footwear & leather goods", true
	case "5244":
		return "Retail furniture household etc", true
	case "5245":
		return "Retail electric household, etc. goods", true
	case "5246":
		return "Retail hardware, paints & glass", true
	case "5247":
		return "Retail books, newspapers etc.", true
	case "5248":
		return "Other retail specialist stores", true
	case "5250":
		return "Retail other secondhand goods", true
	case "5261":
		return "Retail sale via mail order houses", true
	case "5262":
		return "Retail sale via stalls and markets", true
	case "5263":
		return "Other non-store retail sale", true
	case "5271":
		return "Repair boots, shoes, leather goods", true
	case "5272":
		return "Repair electrical household goods", true
	case "5273":
		return "Repair of clocks & jewellery", true
	case "5274":
		return "Repair not elsewhere classified", true
	case "5510":
		return "Hotels & motels with or without restaurant", true
	case "5511":
		return "Hotels & motels", true
	case "5512":
		return "Hotels & motels", true
	case "5521":
		return "Youth hostels and mountain refuges", true
	case "5522":
		return "Camp sites, including caravan sites", true
	case "5523":
		return "Other provision of lodgings", true
	case "5530":
		return "Restaurants", true
	case "5540":
		return "Bars", true
	case "5551":
		return "Canteens", true
	case "5552":
		return "Catering", true
	case "6010":
		return "Transport via railways", true
	case "6021":
		return "Other scheduled passenger land transport", true
	case "6022":
		return "Taxi operation", true
	case "6023":
		return "Other passenger land transport", true
	case "6024":
		return "Freight transport by road", true
	case "6030":
		return "Transport via pipelines", true
	case "6110":
		return "Sea and coastal water transport", true
	case "6120":
		return "Inland water transport", true
	case "6210":
		return "Scheduled air transport", true
	case "6220":
		return "Non-scheduled air transport", true
	case "6230":
		return "Space transport", true
	case "6311":
		return "Cargo handling", true
	case "6312":
		return "Storage & warehousing", true
	case "6321":
		return "Other supporting land transport", true
	case "6322":
		return "Other supporting water transport", true
	case "6323":
		return "Other supporting air transport", true
	case "6330":
		return "Travel agencies etc; tourist", true
	case "6340":
		return "Other transport agencies", true
	case "6411":
		return "National post activities", true
	case "6412":
		return "Courier other than national post", true
	case "6420":
		return "Telecommunications", true
	case "6511":
		return "Central banking", true
	case "6512":
		return "Other monetary intermediation", true
	case "6521":
		return "Financial leasing", true
	case "6522":
		return "Other credit granting", true
	case "6523":
		return "Other financial intermediation", true
	case "6601":
		return "Life insurance/reinsurance", true
	case "6602":
		return "Pension funding", true
	case "6603":
		return "Non-life insurance/reinsurance", true
	case "6711":
		return "Administration of financial markets", true
	case "6712":
		return "Security broking & fund management", true
	case "6713":
		return "Auxiliary financial intermed", true
	case "6720":
		return "Auxiliary insurance & pension fund", true
	case "7011":
		return "Development & sell real estate", true
	case "7012":
		return "Buying & sell own real estate", true
	case "7020":
		return "Letting of own property", true
	case "7031":
		return "Real estate agencies", true
	case "7032":
		return "Manage real estate, fee or contract", true
	case "7110":
		return "Renting of automobiles", true
	case "7121":
		return "Rent other land transport equipment", true
	case "7122":
		return "Rent water transport equipment", true
	case "7123":
		return "Renting of air transport equipment", true
	case "7131":
		return "Rent agricultural machinery & equip", true
	case "7132":
		return "Rent civil engineering machinery", true
	case "7133":
		return "Rent office machinery inc computers", true
	case "7134":
		return "Rent other machinery & equip", true
	case "7140":
		return "Rent personal & household goods", true
	case "7210":
		return "Hardware consultancy", true
	case "7220":
		return "Software consultancy and supply", true
	case "7221":
		return "Software publishing", true
	case "7222":
		return "Other software consultancy and supply", true
	case "7230":
		return "Data processing", true
	case "7240":
		return "Data base activities", true
	case "7250":
		return "Maintenance office & computing mach", true
	case "7260":
		return "Other computer related activities", true
	case "7310":
		return "R & d on nat sciences & engineering", true
	case "7320":
		return "R & d on soc sciences & humanities", true
	case "7411":
		return "Legal activities", true
	case "7412":
		return "Accounting, auditing; tax consult", true
	case "7413":
		return "Market research, opinion polling", true
	case "7414":
		return "Business & management consultancy", true
	case "7415":
		return "Holding companies including Head Offices", true
	case "7420":
		return "Architectural, technical consult", true
	case "7430":
		return "Technical testing and analysis", true
	case "7440":
		return "Advertising", true
	case "7450":
		return "Labour recruitment", true
	case "7460":
		return "Investigation & security", true
	case "7470":
		return "Other cleaning activities", true
	case "7481":
		return "Portrait photographic activities", true
	case "7482":
		return "Packaging activities", true
	case "7483":
		return "Secretarial & translation", true
	case "7484":
		return "Other business activities", true
	case "7485":
		return "Secretarial & translation services", true
	case "7486":
		return "Call centre activities", true
	case "7487":
		return "Other business activities", true
	case "7499":
		return "Non-trading company", true
	case "7511":
		return "General (overall) public service", true
	case "7512":
		return "Regulation health, education, etc.", true
	case "7513":
		return "Regulation more efficient business", true
	case "7514":
		return "Support services for government", true
	case "7521":
		return "Foreign affairs", true
	case "7522":
		return "Defence activities", true
	case "7523":
		return "Justice and judicial activities", true
	case "7524":
		return "Public security, law & order", true
	case "7525":
		return "Fire service activities", true
	case "7530":
		return "Compulsory social security", true
	case "8010":
		return "Primary education", true
	case "8021":
		return "General secondary education", true
	case "8022":
		return "Technical & vocational secondary", true
	case "8030":
		return "Higher education", true
	case "8041":
		return "Driving school activities", true
	case "8042":
		return "Adult and other education", true
	case "8511":
		return "Hospital activities", true
	case "8512":
		return "Medical practice activities", true
	case "8513":
		return "Dental practice activities", true
	case "8514":
		return "Other human health activities", true
	case "8520":
		return "Veterinary activities", true
	case "8531":
		return "Social work with accommodation", true
	case "8532":
		return "Social work without accommodation", true
	case "9000":
		return "Refuse disposal", true
	case "9001":
		return "Collection and treatment of sewage", true
	case "9002":
		return "Collection and treatment of other waste", true
	case "9003":
		return "Sanitation remediation and similar activities", true
	case "9111":
		return "Business & employers organisations", true
	case "9112":
		return "Professional organisations", true
	case "9120":
		return "Trade unions", true
	case "9131":
		return "Religious organisations", true
	case "9132":
		return "Political organisations", true
	case "9133":
		return "Other membership organisations", true
	case "9211":
		return "Motion picture and video production", true
	case "9212":
		return "Motion picture & video distribution", true
	case "9213":
		return "Motion picture projection", true
	case "9220":
		return "Radio and television activities", true
	case "9231":
		return "Artistic & literary creation etc", true
	case "9232":
		return "Operation of arts facilities", true
	case "9233":
		return "Fair and amusement park activities", true
	case "9234":
		return "Other entertainment activities", true
	case "9240":
		return "News agency activities", true
	case "9251":
		return "Library and archives activities", true
	case "9252":
		return "Museum & preservation of history", true
	case "9253":
		return "Botanical, zoos & nature reserves", true
	case "9261":
		return "Operate sports arenas & stadiums", true
	case "9262":
		return "Other sporting activities", true
	case "9271":
		return "Gambling and betting activities", true
	case "9272":
		return "Other recreational activities nec", true
	case "9301":
		return "Wash & dry clean textile & fur", true
	case "9302":
		return "Hairdressing & other beauty treatment", true
	case "9303":
		return "Funeral and related activities", true
	case "9304":
		return "Physical well-being activities", true
	case "9305":
		return "Other service activities n.e.c.", true
	case "9500":
		return "Private household with employees", true
	case "9600":
		return "Undifferentiated goods producing activities of private households for own use", true
	case "9700":
		return "Undifferentiated services producing activities of private households for own use", true
	case "9800":
		return "Residents property management", true
	case "9900":
		return "Extra-territorial organisations", true
	case "9999":
		return "Dormant company", true
	case "01110":
		return "Growing of cereals (except rice), leguminous crops and oil seeds", true
	case "01120":
		return "Growing of rice", true
	case "01130":
		return "Growing of vegetables and melons, roots and tubers", true
	case "01140":
		return "Growing of sugar cane", true
	case "01150":
		return "Growing of tobacco", true
	case "01160":
		return "Growing of fibre crops", true
	case "01190":
		return "Growing of other non-perennial crops", true
	case "01210":
		return "Growing of grapes", true
	case "01220":
		return "Growing of tropical and subtropical fruits", true
	case "01230":
		return "Growing of citrus fruits", true
	case "01240":
		return "Growing of pome fruits and stone fruits", true
	case "01250":
		return "Growing of other tree and bush fruits and nuts", true
	case "01260":
		return "Growing of oleaginous fruits", true
	case "01270":
		return "Growing of beverage crops", true
	case "01280":
		return "Growing of spices, aromatic, drug and pharmaceutical crops", true
	case "01290":
		return "Growing of other perennial crops", true
	case "01300":
		return "Plant propagation", true
	case "01410":
		return "Raising of dairy cattle", true
	case "01420":
		return "Raising of other cattle and buffaloes", true
	case "01430":
		return "Raising of horses and other equines", true
	case "01440":
		return "Raising of camels and camelids", true
	case "01450":
		return "Raising of sheep and  goats", true
	case "01460":
		return "Raising of swine/pigs", true
	case "01470":
		return "Raising of poultry", true
	case "01490":
		return "Raising of other animals", true
	case "01500":
		return "Mixed farming", true
	case "01610":
		return "Support activities for crop production", true
	case "01621":
		return "Farm animal boarding and care", true
	case "01629":
		return "Support activities for animal production (other than farm animal boarding and care) not elsewhere classified", true
	case "01630":
		return "Post-harvest crop activities", true
	case "01640":
		return "Seed processing for propagation", true
	case "01700":
		return "Hunting, trapping and related service activities", true
	case "02100":
		return "Silviculture and other forestry activities", true
	case "02200":
		return "Logging", true
	case "02300":
		return "Gathering of wild growing non-wood products", true
	case "02400":
		return "Support services to forestry", true
	case "03110":
		return "Marine fishing", true
	case "03120":
		return "Freshwater fishing", true
	case "03210":
		return "Marine aquaculture", true
	case "03220":
		return "Freshwater aquaculture", true
	case "05101":
		return "Deep coal mines", true
	case "05102":
		return "Open cast coal working", true
	case "05200":
		return "Mining of lignite", true
	case "06100":
		return "Extraction of crude petroleum", true
	case "06200":
		return "Extraction of natural gas", true
	case "07100":
		return "Mining of iron ores", true
	case "07210":
		return "Mining of uranium and thorium ores", true
	case "07290":
		return "Mining of other non-ferrous metal ores", true
	case "08110":
		return "Quarrying of ornamental and building stone, limestone, gypsum, chalk and slate", true
	case "08120":
		return "Operation of gravel and sand pits; mining of clays and kaolin", true
	case "08910":
		return "Mining of chemical and fertiliser minerals", true
	case "08920":
		return "Extraction of peat", true
	case "08930":
		return "Extraction of salt", true
	case "08990":
		return "Other mining and quarrying not elsewhere classified", true
	case "09100":
		return "Support activities for petroleum and natural gas extraction", true
	case "09900":
		return "Support activities for other mining and quarrying", true
	case "10110":
		return "Processing and preserving of meat", true
	case "10120":
		return "Processing and preserving of poultry meat", true
	case "10130":
		return "Production of meat and poultry meat products", true
	case "10200":
		return "Processing and preserving of fish, crustaceans and molluscs", true
	case "10310":
		return "Processing and preserving of potatoes", true
	case "10320":
		return "Manufacture of fruit and vegetable juice", true
	case "10390":
		return "Other processing and preserving of fruit and vegetables", true
	case "10410":
		return "Manufacture of oils and fats", true
	case "10420":
		return "Manufacture of margarine and similar edible fats", true
	case "10511":
		return "Liquid milk and cream production", true
	case "10512":
		return "Butter and cheese production", true
	case "10519":
		return "Manufacture of other milk products", true
	case "10520":
		return "Manufacture of ice cream", true
	case "10611":
		return "Grain milling", true
	case "10612":
		return "Manufacture of breakfast cereals and cereals-based food", true
	case "10620":
		return "Manufacture of starches and starch products", true
	case "10710":
		return "Manufacture of bread; manufacture of fresh pastry goods and cakes", true
	case "10720":
		return "Manufacture of rusks and biscuits; manufacture of preserved pastry goods and cakes", true
	case "10730":
		return "Manufacture of macaroni, noodles, couscous and similar farinaceous products", true
	case "10810":
		return "Manufacture of sugar", true
	case "10821":
		return "Manufacture of cocoa and chocolate confectionery", true
	case "10822":
		return "Manufacture of sugar confectionery", true
	case "10831":
		return "Tea processing", true
	case "10832":
		return "Production of coffee and coffee substitutes", true
	case "10840":
		return "Manufacture of condiments and seasonings", true
	case "10850":
		return "Manufacture of prepared meals and dishes", true
	case "10860":
		return "Manufacture of homogenised food preparations and dietetic food", true
	case "10890":
		return "Manufacture of other food products not elsewhere classified", true
	case "10910":
		return "Manufacture of prepared feeds for farm animals", true
	case "10920":
		return "Manufacture of prepared pet foods", true
	case "11010":
		return "Distilling, rectifying and blending of spirits", true
	case "11020":
		return "Manufacture of wine from grape", true
	case "11030":
		return "Manufacture of cider and other fruit wines", true
	case "11040":
		return "Manufacture of other non-distilled fermented beverages", true
	case "11050":
		return "Manufacture of beer", true
	case "11060":
		return "Manufacture of malt", true
	case "11070":
		return "Manufacture of soft drinks; production of mineral waters and other bottled waters", true
	case "12000":
		return "Manufacture of tobacco products", true
	case "13100":
		return "Preparation and spinning of textile fibres", true
	case "13200":
		return "Weaving of textiles", true
	case "13300":
		return "Finishing of textiles", true
	case "13910":
		return "Manufacture of knitted and crocheted fabrics", true
	case "13921":
		return "Manufacture of soft furnishings", true
	case "13922":
		return "manufacture of canvas goods, sacks, etc.", true
	case "13923":
		return "manufacture of household textiles", true
	case "13931":
		return "Manufacture of woven or tufted carpets and rugs", true
	case "13939":
		return "Manufacture of other carpets and rugs", true
	case "13940":
		return "Manufacture of cordage, rope, twine and netting", true
	case "13950":
		return "Manufacture of non-wovens and articles made from non-wovens, except apparel", true
	case "13960":
		return "Manufacture of other technical and industrial textiles", true
	case "13990":
		return "Manufacture of other textiles not elsewhere classified", true
	case "14110":
		return "Manufacture of leather clothes", true
	case "14120":
		return "Manufacture of workwear", true
	case "14131":
		return "Manufacture of other men's outerwear", true
	case "14132":
		return "Manufacture of other women's outerwear", true
	case "14141":
		return "Manufacture of men's underwear", true
	case "14142":
		return "Manufacture of women's underwear", true
	case "14190":
		return "Manufacture of other wearing apparel and accessories not elsewhere classified", true
	case "14200":
		return "Manufacture of articles of fur", true
	case "14310":
		return "Manufacture of knitted and crocheted hosiery", true
	case "14390":
		return "Manufacture of other knitted and crocheted apparel", true
	case "15110":
		return "Tanning and dressing of leather; dressing and dyeing of fur", true
	case "15120":
		return "Manufacture of luggage, handbags and the like, saddlery and harness", true
	case "15200":
		return "Manufacture of footwear", true
	case "16100":
		return "Sawmilling and planing of wood", true
	case "16210":
		return "Manufacture of veneer sheets and wood-based panels", true
	case "16220":
		return "Manufacture of assembled parquet floors", true
	case "16230":
		return "Manufacture of other builders' carpentry and joinery", true
	case "16240":
		return "Manufacture of wooden containers", true
	case "16290":
		return "Manufacture of other products of wood; manufacture of articles of cork, straw and plaiting materials", true
	case "17110":
		return "Manufacture of pulp", true
	case "17120":
		return "Manufacture of paper and paperboard", true
	case "17211":
		return "Manufacture of corrugated paper and paperboard, sacks and bags", true
	case "17219":
		return "Manufacture of other paper and paperboard containers", true
	case "17220":
		return "Manufacture of household and sanitary goods and of toilet requisites", true
	case "17230":
		return "Manufacture of paper stationery", true
	case "17240":
		return "Manufacture of wallpaper", true
	case "17290":
		return "Manufacture of other articles of paper and paperboard not elsewhere classified", true
	case "18110":
		return "Printing of newspapers", true
	case "18121":
		return "Manufacture of printed labels", true
	case "18129":
		return "Printing not elsewhere classified", true
	case "18130":
		return "Pre-press and pre-media services", true
	case "18140":
		return "Binding and related services", true
	case "18201":
		return "Reproduction of sound recording", true
	case "18202":
		return "Reproduction of video recording", true
	case "18203":
		return "Reproduction of computer media", true
	case "19100":
		return "Manufacture of coke oven products", true
	case "19201":
		return "Mineral oil refining", true
	case "19209":
		return "Other treatment of petroleum products (excluding petrochemicals manufacture)", true
	case "20110":
		return "Manufacture of industrial gases", true
	case "20120":
		return "Manufacture of dyes and pigments", true
	case "20130":
		return "Manufacture of other inorganic basic chemicals", true
	case "20140":
		return "Manufacture of other organic basic chemicals", true
	case "20150":
		return "Manufacture of fertilisers and nitrogen compounds", true
	case "20160":
		return "Manufacture of plastics in primary forms", true
	case "20170":
		return "Manufacture of synthetic rubber in primary forms", true
	case "20200":
		return "Manufacture of pesticides and other agrochemical products", true
	case "20301":
		return "Manufacture of paints, varnishes and similar coatings, mastics and sealants", true
	case "20302":
		return "Manufacture of printing ink", true
	case "20411":
		return "Manufacture of soap and detergents", true
	case "20412":
		return "Manufacture of cleaning and polishing preparations", true
	case "20420":
		return "Manufacture of perfumes and toilet preparations", true
	case "20510":
		return "Manufacture of explosives", true
	case "20520":
		return "Manufacture of glues", true
	case "20530":
		return "Manufacture of essential oils", true
	case "20590":
		return "Manufacture of other chemical products not elsewhere classified", true
	case "20600":
		return "Manufacture of man-made fibres", true
	case "21100":
		return "Manufacture of basic pharmaceutical products", true
	case "21200":
		return "Manufacture of pharmaceutical preparations", true
	case "22110":
		return "Manufacture of rubber tyres and tubes; retreading and rebuilding of rubber tyres", true
	case "22190":
		return "Manufacture of other rubber products", true
	case "22210":
		return "Manufacture of plastic plates, sheets, tubes and profiles", true
	case "22220":
		return "Manufacture of plastic packing goods", true
	case "22230":
		return "Manufacture of builders  ware of plastic", true
	case "22290":
		return "Manufacture of other plastic products", true
	case "23110":
		return "Manufacture of flat glass", true
	case "23120":
		return "Shaping and processing of flat glass", true
	case "23130":
		return "Manufacture of hollow glass", true
	case "23140":
		return "Manufacture of glass fibres", true
	case "23190":
		return "Manufacture and processing of other glass, including technical glassware", true
	case "23200":
		return "Manufacture of refractory products", true
	case "23310":
		return "Manufacture of ceramic tiles and flags", true
	case "23320":
		return "Manufacture of bricks, tiles and construction products, in baked clay", true
	case "23410":
		return "Manufacture of ceramic household and ornamental articles", true
	case "23420":
		return "Manufacture of ceramic sanitary fixtures", true
	case "23430":
		return "Manufacture of ceramic insulators and insulating fittings", true
	case "23440":
		return "Manufacture of other technical ceramic products", true
	case "23490":
		return "Manufacture of other ceramic products not elsewhere classified", true
	case "23510":
		return "Manufacture of cement", true
	case "23520":
		return "Manufacture of lime and plaster", true
	case "23610":
		return "Manufacture of concrete products for construction purposes", true
	case "23620":
		return "Manufacture of plaster products for construction purposes", true
	case "23630":
		return "Manufacture of ready-mixed concrete", true
	case "23640":
		return "Manufacture of mortars", true
	case "23650":
		return "Manufacture of fibre cement", true
	case "23690":
		return "Manufacture of other articles of concrete, plaster and cement", true
	case "23700":
		return "Cutting, shaping and finishing of stone", true
	case "23910":
		return "Production of abrasive products", true
	case "23990":
		return "Manufacture of other non-metallic mineral products not elsewhere classified", true
	case "24100":
		return "Manufacture of basic iron and steel and of ferro-alloys", true
	case "24200":
		return "Manufacture of tubes, pipes, hollow profiles and related fittings, of steel", true
	case "24310":
		return "Cold drawing of bars", true
	case "24320":
		return "Cold rolling of narrow strip", true
	case "24330":
		return "Cold forming or folding", true
	case "24340":
		return "Cold drawing of wire", true
	case "24410":
		return "Precious metals production", true
	case "24420":
		return "Aluminium production", true
	case "24430":
		return "Lead, zinc and tin production", true
	case "24440":
		return "Copper production", true
	case "24450":
		return "Other non-ferrous metal production", true
	case "24460":
		return "Processing of nuclear fuel", true
	case "24510":
		return "Casting of iron", true
	case "24520":
		return "Casting of steel", true
	case "24530":
		return "Casting of light metals", true
	case "24540":
		return "Casting of other non-ferrous metals", true
	case "25110":
		return "Manufacture of metal structures and parts of structures", true
	case "25120":
		return "Manufacture of doors and windows of metal", true
	case "25210":
		return "Manufacture of central heating radiators and boilers", true
	case "25290":
		return "Manufacture of other tanks, reservoirs and containers of metal", true
	case "25300":
		return "Manufacture of steam generators, except central heating hot water boilers", true
	case "25400":
		return "Manufacture of weapons and ammunition", true
	case "25500":
		return "Forging, pressing, stamping and roll-forming of metal; powder metallurgy", true
	case "25610":
		return "Treatment and coating of metals", true
	case "25620":
		return "Machining", true
	case "25710":
		return "Manufacture of cutlery", true
	case "25720":
		return "Manufacture of locks and hinges", true
	case "25730":
		return "Manufacture of tools", true
	case "25910":
		return "Manufacture of steel drums and similar containers", true
	case "25920":
		return "Manufacture of light metal packaging", true
	case "25930":
		return "Manufacture of wire products, chain and springs", true
	case "25940":
		return "Manufacture of fasteners and screw machine products", true
	case "25990":
		return "Manufacture of other fabricated metal products not elsewhere classified", true
	case "26110":
		return "Manufacture of electronic components", true
	case "26120":
		return "Manufacture of loaded electronic boards", true
	case "26200":
		return "Manufacture of computers and peripheral equipment", true
	case "26301":
		return "Manufacture of telegraph and telephone apparatus and equipment", true
	case "26309":
		return "Manufacture of communication equipment other than telegraph, and telephone apparatus and equipment", true
	case "26400":
		return "Manufacture of consumer electronics", true
	case "26511":
		return "Manufacture of electronic measuring, testing etc. equipment, not for industrial process control", true
	case "26512":
		return "Manufacture of electronic industrial process control equipment", true
	case "26513":
		return "Manufacture of non-electronic measuring, testing etc. equipment, not for industrial process control", true
	case "26514":
		return "Manufacture of non-electronic industrial process control equipment", true
	case "26520":
		return "Manufacture of watches and clocks", true
	case "26600":
		return "Manufacture of irradiation, electromedical and electrotherapeutic equipment", true
	case "26701":
		return "Manufacture of optical precision instruments", true
	case "26702":
		return "Manufacture of photographic and cinematographic equipment", true
	case "26800":
		return "Manufacture of magnetic and optical media", true
	case "27110":
		return "Manufacture of electric motors, generators and transformers", true
	case "27120":
		return "Manufacture of electricity distribution and control apparatus", true
	case "27200":
		return "Manufacture of batteries and accumulators", true
	case "27310":
		return "Manufacture of fibre optic cables", true
	case "27320":
		return "Manufacture of other electronic and electric wires and cables", true
	case "27330":
		return "Manufacture of wiring devices", true
	case "27400":
		return "Manufacture of electric lighting equipment", true
	case "27510":
		return "Manufacture of electric domestic appliances", true
	case "27520":
		return "Manufacture of non-electric domestic appliances", true
	case "27900":
		return "Manufacture of other electrical equipment", true
	case "28110":
		return "Manufacture of engines and turbines, except aircraft, vehicle and cycle engines", true
	case "28120":
		return "Manufacture of fluid power equipment", true
	case "28131":
		return "Manufacture of pumps", true
	case "28132":
		return "Manufacture of compressors", true
	case "28140":
		return "Manufacture of taps and valves", true
	case "28150":
		return "Manufacture of bearings, gears, gearing and driving elements", true
	case "28210":
		return "Manufacture of ovens, furnaces and furnace burners", true
	case "28220":
		return "Manufacture of lifting and handling equipment", true
	case "28230":
		return "Manufacture of office machinery and equipment (except computers and peripheral equipment)", true
	case "28240":
		return "Manufacture of power-driven hand tools", true
	case "28250":
		return "Manufacture of non-domestic cooling and ventilation equipment", true
	case "28290":
		return "Manufacture of other general-purpose machinery not elsewhere classified", true
	case "28301":
		return "Manufacture of agricultural tractors", true
	case "28302":
		return "Manufacture of agricultural and forestry machinery other than tractors", true
	case "28410":
		return "Manufacture of metal forming machinery", true
	case "28490":
		return "Manufacture of other machine tools", true
	case "28910":
		return "Manufacture of machinery for metallurgy", true
	case "28921":
		return "Manufacture of machinery for mining", true
	case "28922":
		return "Manufacture of earthmoving equipment", true
	case "28923":
		return "Manufacture of equipment for concrete crushing and screening and roadworks", true
	case "28930":
		return "Manufacture of machinery for food, beverage and tobacco processing", true
	case "28940":
		return "Manufacture of machinery for textile, apparel and leather production", true
	case "28950":
		return "Manufacture of machinery for paper and paperboard production", true
	case "28960":
		return "Manufacture of plastics and rubber machinery", true
	case "28990":
		return "Manufacture of other special-purpose machinery not elsewhere classified", true
	case "29100":
		return "Manufacture of motor vehicles", true
	case "29201":
		return "Manufacture of bodies (coachwork) for motor vehicles (except caravans)", true
	case "29202":
		return "Manufacture of trailers and semi-trailers", true
	case "29203":
		return "Manufacture of caravans", true
	case "29310":
		return "Manufacture of electrical and electronic equipment for motor vehicles and their engines", true
	case "29320":
		return "Manufacture of other parts and accessories for motor vehicles", true
	case "30110":
		return "Building of ships and floating structures", true
	case "30120":
		return "Building of pleasure and sporting boats", true
	case "30200":
		return "Manufacture of railway locomotives and rolling stock", true
	case "30300":
		return "Manufacture of air and spacecraft and related machinery", true
	case "30400":
		return "Manufacture of military fighting vehicles", true
	case "30910":
		return "Manufacture of motorcycles", true
	case "30920":
		return "Manufacture of bicycles and invalid carriages", true
	case "30990":
		return "Manufacture of other transport equipment not elsewhere classified", true
	case "31010":
		return "Manufacture of office and shop furniture", true
	case "31020":
		return "Manufacture of kitchen furniture", true
	case "31030":
		return "Manufacture of mattresses", true
	case "31090":
		return "Manufacture of other furniture", true
	case "32110":
		return "Striking of coins", true
	case "32120":
		return "Manufacture of jewellery and related articles", true
	case "32130":
		return "Manufacture of imitation jewellery and related articles", true
	case "32200":
		return "Manufacture of musical instruments", true
	case "32300":
		return "Manufacture of sports goods", true
	case "32401":
		return "Manufacture of professional and arcade games and toys", true
	case "32409":
		return "Manufacture of other games and toys, not elsewhere classified", true
	case "32500":
		return "Manufacture of medical and dental instruments and supplies", true
	case "32910":
		return "Manufacture of brooms and brushes", true
	case "32990":
		return "Other manufacturing not elsewhere classified", true
	case "33110":
		return "Repair of fabricated metal products", true
	case "33120":
		return "Repair of machinery", true
	case "33130":
		return "Repair of electronic and optical equipment", true
	case "33140":
		return "Repair of electrical equipment", true
	case "33150":
		return "Repair and maintenance of ships and boats", true
	case "33160":
		return "Repair and maintenance of aircraft and spacecraft", true
	case "33170":
		return "Repair and maintenance of other transport equipment not elsewhere classified", true
	case "33190":
		return "Repair of other equipment", true
	case "33200":
		return "Installation of industrial machinery and equipment", true
	case "35110":
		return "Production of electricity", true
	case "35120":
		return "Transmission of electricity", true
	case "35130":
		return "Distribution of electricity", true
	case "35140":
		return "Trade of electricity", true
	case "35210":
		return "Manufacture of gas", true
	case "35220":
		return "Distribution of gaseous fuels through mains", true
	case "35230":
		return "Trade of gas through mains", true
	case "35300":
		return "Steam and air conditioning supply", true
	case "36000":
		return "Water collection, treatment and supply", true
	case "37000":
		return "Sewerage", true
	case "38110":
		return "Collection of non-hazardous waste", true
	case "38120":
		return "Collection of hazardous waste", true
	case "38210":
		return "Treatment and disposal of non-hazardous waste", true
	case "38220":
		return "Treatment and disposal of hazardous waste", true
	case "38310":
		return "Dismantling of wrecks", true
	case "38320":
		return "Recovery of sorted materials", true
	case "39000":
		return "Remediation activities and other waste management services", true
	case "41100":
		return "Development of building projects", true
	case "41201":
		return "Construction of commercial buildings", true
	case "41202":
		return "Construction of domestic buildings", true
	case "42110":
		return "Construction of roads and motorways", true
	case "42120":
		return "Construction of railways and underground railways", true
	case "42130":
		return "Construction of bridges and tunnels", true
	case "42210":
		return "Construction of utility projects for fluids", true
	case "42220":
		return "Construction of utility projects for electricity and telecommunications", true
	case "42910":
		return "Construction of water projects", true
	case "42990":
		return "Construction of other civil engineering projects not elsewhere classified", true
	case "43110":
		return "Demolition", true
	case "43120":
		return "Site preparation", true
	case "43130":
		return "Test drilling and boring", true
	case "43210":
		return "Electrical installation", true
	case "43220":
		return "Plumbing, heat and air-conditioning installation", true
	case "43290":
		return "Other construction installation", true
	case "43310":
		return "Plastering", true
	case "43320":
		return "Joinery installation", true
	case "43330":
		return "Floor and wall covering", true
	case "43341":
		return "Painting", true
	case "43342":
		return "Glazing", true
	case "43390":
		return "Other building completion and finishing", true
	case "43910":
		return "Roofing activities", true
	case "43991":
		return "Scaffold erection", true
	case "43999":
		return "Other specialised construction activities not elsewhere classified", true
	case "45111":
		return "Sale of new cars and light motor vehicles", true
	case "45112":
		return "Sale of used cars and light motor vehicles", true
	case "45190":
		return "Sale of other motor vehicles", true
	case "45200":
		return "Maintenance and repair of motor vehicles", true
	case "45310":
		return "Wholesale trade of motor vehicle parts and accessories", true
	case "45320":
		return "Retail trade of motor vehicle parts and accessories", true
	case "45400":
		return "Sale, maintenance and repair of motorcycles and related parts and accessories", true
	case "46110":
		return "Agents selling agricultural raw materials, livestock, textile raw materials and semi-finished goods", true
	case "46120":
		return "Agents involved in the sale of fuels, ores, metals and industrial chemicals", true
	case "46130":
		return "Agents involved in the sale of timber and building materials", true
	case "46140":
		return "Agents involved in the sale of machinery, industrial equipment, ships and aircraft", true
	case "46150":
		return "Agents involved in the sale of furniture, household goods, hardware and ironmongery", true
	case "46160":
		return "Agents involved in the sale of textiles, clothing, fur, footwear and leather goods", true
	case "46170":
		return "Agents involved in the sale of food, beverages and tobacco", true
	case "46180":
		return "Agents specialised in the sale of other particular products", true
	case "46190":
		return "Agents involved in the sale of a variety of goods", true
	case "46210":
		return "Wholesale of grain, unmanufactured tobacco, seeds and animal feeds", true
	case "46220":
		return "Wholesale of flowers and plants", true
	case "46230":
		return "Wholesale of live animals", true
	case "46240":
		return "Wholesale of hides, skins and leather", true
	case "46310":
		return "Wholesale of fruit and vegetables", true
	case "46320":
		return "Wholesale of meat and meat products", true
	case "46330":
		return "Wholesale of dairy products, eggs and edible oils and fats", true
	case "46341":
		return "Wholesale of fruit and vegetable juices, mineral water and soft drinks", true
	case "46342":
		return "Wholesale of wine, beer, spirits and other alcoholic beverages", true
	case "46350":
		return "Wholesale of tobacco products", true
	case "46360":
		return "Wholesale of sugar and chocolate and sugar confectionery", true
	case "46370":
		return "Wholesale of coffee, tea, cocoa and spices", true
	case "46380":
		return "Wholesale of other food, including fish, crustaceans and molluscs", true
	case "46390":
		return "Non-specialised wholesale of food, beverages and tobacco", true
	case "46410":
		return "Wholesale of textiles", true
	case "46420":
		return "Wholesale of clothing and footwear", true
	case "46431":
		return "Wholesale of audio tapes, records, CDs and video tapes and the equipment on which these are played", true
	case "46439":
		return "Wholesale of radio, television goods & electrical household appliances (other than records, tapes, CD's & video tapes and the equipment used for playing them)", true
	case "46440":
		return "Wholesale of china and glassware and cleaning materials", true
	case "46450":
		return "Wholesale of perfume and cosmetics", true
	case "46460":
		return "Wholesale of pharmaceutical goods", true
	case "46470":
		return "Wholesale of furniture, carpets and lighting equipment", true
	case "46480":
		return "Wholesale of watches and jewellery", true
	case "46491":
		return "Wholesale of musical instruments", true
	case "46499":
		return "Wholesale of household goods (other than musical instruments) not elsewhere classified", true
	case "46510":
		return "Wholesale of computers, computer peripheral equipment and software", true
	case "46520":
		return "Wholesale of electronic and telecommunications equipment and parts", true
	case "46610":
		return "Wholesale of agricultural machinery, equipment and supplies", true
	case "46620":
		return "Wholesale of machine tools", true
	case "46630":
		return "Wholesale of mining, construction and civil engineering machinery", true
	case "46640":
		return "Wholesale of machinery for the textile industry and of sewing and knitting machines", true
	case "46650":
		return "Wholesale of office furniture", true
	case "46660":
		return "Wholesale of other office machinery and equipment", true
	case "46690":
		return "Wholesale of other machinery and equipment", true
	case "46711":
		return "Wholesale of petroleum and petroleum products", true
	case "46719":
		return "Wholesale of other fuels and related products", true
	case "46720":
		return "Wholesale of metals and metal ores", true
	case "46730":
		return "Wholesale of wood, construction materials and sanitary equipment", true
	case "46740":
		return "Wholesale of hardware, plumbing and heating equipment and supplies", true
	case "46750":
		return "Wholesale of chemical products", true
	case "46760":
		return "Wholesale of other intermediate products", true
	case "46770":
		return "Wholesale of waste and scrap", true
	case "46900":
		return "Non-specialised wholesale trade", true
	case "47110":
		return "Retail sale in non-specialised stores with food, beverages or tobacco predominating", true
	case "47190":
		return "Other retail sale in non-specialised stores", true
	case "47210":
		return "Retail sale of fruit and vegetables in specialised stores", true
	case "47220":
		return "Retail sale of meat and meat products in specialised stores", true
	case "47230":
		return "Retail sale of fish, crustaceans and molluscs in specialised stores", true
	case "47240":
		return "Retail sale of bread, cakes, flour confectionery and sugar confectionery in specialised stores", true
	case "47250":
		return "Retail sale of beverages in specialised stores", true
	case "47260":
		return "Retail sale of tobacco products in specialised stores", true
	case "47290":
		return "Other retail sale of food in specialised stores", true
	case "47300":
		return "Retail sale of automotive fuel in specialised stores", true
	case "47410":
		return "Retail sale of computers, peripheral units and software in specialised stores", true
	case "47421":
		return "Retail sale of mobile telephones", true
	case "47429":
		return "Retail sale of telecommunications equipment other than mobile telephones", true
	case "47430":
		return "Retail sale of audio and video equipment in specialised stores", true
	case "47510":
		return "Retail sale of textiles in specialised stores", true
	case "47520":
		return "Retail sale of hardware, paints and glass in specialised stores", true
	case "47530":
		return "Retail sale of carpets, rugs, wall and floor coverings in specialised stores", true
	case "47540":
		return "Retail sale of electrical household appliances in specialised stores", true
	case "47591":
		return "Retail sale of musical instruments and scores", true
	case "47599":
		return "Retail of furniture, lighting, and similar (not musical instruments or scores) in specialised store", true
	case "47610":
		return "Retail sale of books in specialised stores", true
	case "47620":
		return "Retail sale of newspapers and stationery in specialised stores", true
	case "47630":
		return "Retail sale of music and video recordings in specialised stores", true
	case "47640":
		return "Retail sale of sports goods, fishing gear, camping goods, boats and bicycles", true
	case "47650":
		return "Retail sale of games and toys in specialised stores", true
	case "47710":
		return "Retail sale of clothing in specialised stores", true
	case "47721":
		return "Retail sale of footwear in specialised stores", true
	case "47722":
		return "Retail sale of leather goods in specialised stores", true
	case "47730":
		return "Dispensing chemist in specialised stores", true
	case "47741":
		return "Retail sale of hearing aids", true
	case "47749":
		return "Retail sale of medical and orthopaedic goods in specialised stores (not incl. hearing aids) not elsewhere classified", true
	case "47750":
		return "Retail sale of cosmetic and toilet articles in specialised stores", true
	case "47760":
		return "Retail sale of flowers, plants, seeds, fertilisers, pet animals and pet food in specialised stores", true
	case "47770":
		return "Retail sale of watches and jewellery in specialised stores", true
	case "47781":
		return "Retail sale in commercial art galleries", true
	case "47782":
		return "Retail sale by opticians", true
	case "47789":
		return "Other retail sale of new goods in specialised stores (not commercial art galleries and opticians)", true
	case "47791":
		return "Retail sale of antiques including antique books in stores", true
	case "47799":
		return "Retail sale of other second-hand goods in stores (not incl. antiques)", true
	case "47810":
		return "Retail sale via stalls and markets of food, beverages and tobacco products", true
	case "47820":
		return "Retail sale via stalls and markets of textiles, clothing and footwear", true
	case "47890":
		return "Retail sale via stalls and markets of other goods", true
	case "47910":
		return "Retail sale via mail order houses or via Internet", true
	case "47990":
		return "Other retail sale not in stores, stalls or markets", true
	case "49100":
		return "Passenger rail transport, interurban", true
	case "49200":
		return "Freight rail transport", true
	case "49311":
		return "Urban and suburban passenger railway transportation by underground, metro and similar systems", true
	case "49319":
		return "Other urban, suburban or metropolitan passenger land transport (not underground, metro or similar)", true
	case "49320":
		return "Taxi operation", true
	case "49390":
		return "Other passenger land transport", true
	case "49410":
		return "Freight transport by road", true
	case "49420":
		return "Removal services", true
	case "49500":
		return "Transport via pipeline", true
	case "50100":
		return "Sea and coastal passenger water transport", true
	case "50200":
		return "Sea and coastal freight water transport", true
	case "50300":
		return "Inland passenger water transport", true
	case "50400":
		return "Inland freight water transport", true
	case "51101":
		return "Scheduled passenger air transport", true
	case "51102":
		return "Non-scheduled passenger air transport", true
	case "51210":
		return "Freight air transport", true
	case "51220":
		return "Space transport", true
	case "52101":
		return "Operation of warehousing and storage facilities for water transport activities", true
	case "52102":
		return "Operation of warehousing and storage facilities for air transport activities", true
	case "52103":
		return "Operation of warehousing and storage facilities for land transport activities", true
	case "52211":
		return "Operation of rail freight terminals", true
	case "52212":
		return "Operation of rail passenger facilities at railway stations", true
	case "52213":
		return "Operation of bus and coach passenger facilities at bus and coach stations", true
	case "52219":
		return "Other service activities incidental to land transportation, not elsewhere classified", true
	case "52220":
		return "Service activities incidental to water transportation", true
	case "52230":
		return "Service activities incidental to air transportation", true
	case "52241":
		return "Cargo handling for water transport activities", true
	case "52242":
		return "Cargo handling for air transport activities", true
	case "52243":
		return "Cargo handling for land transport activities", true
	case "52290":
		return "Other transportation support activities", true
	case "53100":
		return "Postal activities under universal service obligation", true
	case "53201":
		return "Licensed carriers", true
	case "53202":
		return "Unlicensed carrier", true
	case "55100":
		return "Hotels and similar accommodation", true
	case "55201":
		return "Holiday centres and villages", true
	case "55202":
		return "Youth hostels", true
	case "55209":
		return "Other holiday and other collective accommodation", true
	case "55300":
		return "Recreational vehicle parks, trailer parks and camping grounds", true
	case "55900":
		return "Other accommodation", true
	case "56101":
		return "Licensed restaurants", true
	case "56102":
		return "Unlicensed restaurants and cafes", true
	case "56103":
		return "Take-away food shops and mobile food stands", true
	case "56210":
		return "Event catering activities", true
	case "56290":
		return "Other food services", true
	case "56301":
		return "Licensed clubs", true
	case "56302":
		return "Public houses and bars", true
	case "58110":
		return "Book publishing", true
	case "58120":
		return "Publishing of directories and mailing lists", true
	case "58130":
		return "Publishing of newspapers", true
	case "58141":
		return "Publishing of learned journals", true
	case "58142":
		return "Publishing of  consumer and business journals and periodicals", true
	case "58190":
		return "Other publishing activities", true
	case "58210":
		return "Publishing of computer games", true
	case "58290":
		return "Other software publishing", true
	case "59111":
		return "Motion picture production activities", true
	case "59112":
		return "Video production activities", true
	case "59113":
		return "Television programme production activities", true
	case "59120":
		return "Motion picture, video and television programme post-production activities", true
	case "59131":
		return "Motion picture distribution activities", true
	case "59132":
		return "Video distribution activities", true
	case "59133":
		return "Television programme distribution activities", true
	case "59140":
		return "Motion picture projection activities", true
	case "59200":
		return "Sound recording and music publishing activities", true
	case "60100":
		return "Radio broadcasting", true
	case "60200":
		return "Television programming and broadcasting activities", true
	case "61100":
		return "Wired telecommunications activities", true
	case "61200":
		return "Wireless telecommunications activities", true
	case "61300":
		return "Satellite telecommunications activities", true
	case "61900":
		return "Other telecommunications activities", true
	case "62011":
		return "Ready-made interactive leisure and entertainment software development", true
	case "62012":
		return "Business and domestic software development", true
	case "62020":
		return "Information technology consultancy activities", true
	case "62030":
		return "Computer facilities management activities", true
	case "62090":
		return "Other information technology service activities", true
	case "63110":
		return "Data processing, hosting and related activities", true
	case "63120":
		return "Web portals", true
	case "63910":
		return "News agency activities", true
	case "63990":
		return "Other information service activities not elsewhere classified", true
	case "64110":
		return "Central banking", true
	case "64191":
		return "Banks", true
	case "64192":
		return "Building societies", true
	case "64201":
		return "Activities of agricultural holding companies", true
	case "64202":
		return "Activities of production holding companies", true
	case "64203":
		return "Activities of construction holding companies", true
	case "64204":
		return "Activities of distribution holding companies", true
	case "64205":
		return "Activities of financial services holding companies", true
	case "64209":
		return "Activities of other holding companies not elsewhere classified", true
	case "64301":
		return "Activities of investment trusts", true
	case "64302":
		return "Activities of unit trusts", true
	case "64303":
		return "Activities of venture and development capital companies", true
	case "64304":
		return "Activities of open-ended investment companies", true
	case "64305":
		return "Activities of property unit trusts", true
	case "64306":
		return "Activities of real estate investment trusts", true
	case "64910":
		return "Financial leasing", true
	case "64921":
		return "Credit granting by non-deposit taking finance houses and other specialist consumer credit grantors", true
	case "64922":
		return "Activities of mortgage finance companies", true
	case "64929":
		return "Other credit granting not elsewhere classified", true
	case "64991":
		return "Security dealing on own account", true
	case "64992":
		return "Factoring", true
	case "64999":
		return "Financial intermediation not elsewhere classified", true
	case "65110":
		return "Life insurance", true
	case "65120":
		return "Non-life insurance", true
	case "65201":
		return "Life reinsurance", true
	case "65202":
		return "Non-life reinsurance", true
	case "65300":
		return "Pension funding", true
	case "66110":
		return "Administration of financial markets", true
	case "66120":
		return "Security and commodity contracts dealing activities", true
	case "66190":
		return "Activities auxiliary to financial intermediation not elsewhere classified", true
	case "66210":
		return "Risk and damage evaluation", true
	case "66220":
		return "Activities of insurance agents and brokers", true
	case "66290":
		return "Other activities auxiliary to insurance and pension funding", true
	case "66300":
		return "Fund management activities", true
	case "68100":
		return "Buying and selling of own real estate", true
	case "68201":
		return "Renting and operating of Housing Association real estate", true
	case "68202":
		return "Letting and operating of conference and exhibition centres", true
	case "68209":
		return "Other letting and operating of own or leased real estate", true
	case "68310":
		return "Real estate agencies", true
	case "68320":
		return "Management of real estate on a fee or contract basis", true
	case "69101":
		return "Barristers at law", true
	case "69102":
		return "Solicitors", true
	case "69109":
		return "Activities of patent and copyright agents; other legal activities not elsewhere classified", true
	case "69201":
		return "Accounting and auditing activities", true
	case "69202":
		return "Bookkeeping activities", true
	case "69203":
		return "Tax consultancy", true
	case "70100":
		return "Activities of head offices", true
	case "70210":
		return "Public relations and communications activities", true
	case "70221":
		return "Financial management", true
	case "70229":
		return "Management consultancy activities other than financial management", true
	case "71111":
		return "Architectural activities", true
	case "71112":
		return "Urban planning and landscape architectural activities", true
	case "71121":
		return "Engineering design activities for industrial process and production", true
	case "71122":
		return "Engineering related scientific and technical consulting activities", true
	case "71129":
		return "Other engineering activities", true
	case "71200":
		return "Technical testing and analysis", true
	case "72110":
		return "Research and experimental development on biotechnology", true
	case "72190":
		return "Other research and experimental development on natural sciences and engineering", true
	case "72200":
		return "Research and experimental development on social sciences and humanities", true
	case "73110":
		return "Advertising agencies", true
	case "73120":
		return "Media representation services", true
	case "73200":
		return "Market research and public opinion polling", true
	case "74100":
		return "Specialised design activities", true
	case "74201":
		return "Portrait photographic activities", true
	case "74202":
		return "Other specialist photography", true
	case "74203":
		return "Film processing", true
	case "74209":
		return "Photographic activities not elsewhere classified", true
	case "74300":
		return "Translation and interpretation activities", true
	case "74901":
		return "Environmental consulting activities", true
	case "74902":
		return "Quantity surveying activities", true
	case "74909":
		return "Other professional, scientific and technical activities not elsewhere classified", true
	case "74990":
		return "Non-trading company", true
	case "75000":
		return "Veterinary activities", true
	case "77110":
		return "Renting and leasing of cars and light motor vehicles", true
	case "77120":
		return "Renting and leasing of trucks and other heavy vehicles", true
	case "77210":
		return "Renting and leasing of recreational and sports goods", true
	case "77220":
		return "Renting of video tapes and disks", true
	case "77291":
		return "Renting and leasing of media entertainment equipment", true
	case "77299":
		return "Renting and leasing of other personal and household goods", true
	case "77310":
		return "Renting and leasing of agricultural machinery and equipment", true
	case "77320":
		return "Renting and leasing of construction and civil engineering machinery and equipment", true
	case "77330":
		return "Renting and leasing of office machinery and equipment (including computers)", true
	case "77341":
		return "Renting and leasing of passenger water transport equipment", true
	case "77342":
		return "Renting and leasing of freight water transport equipment", true
	case "77351":
		return "Renting and leasing of air passenger transport equipment", true
	case "77352":
		return "Renting and leasing of freight air transport equipment", true
	case "77390":
		return "Renting and leasing of other machinery, equipment and tangible goods not elsewhere classified", true
	case "77400":
		return "Leasing of intellectual property and similar products, except copyright works", true
	case "78101":
		return "Motion picture, television and other theatrical casting activities", true
	case "78109":
		return "Other activities of employment placement agencies", true
	case "78200":
		return "Temporary employment agency activities", true
	case "78300":
		return "Human resources provision and management of human resources functions", true
	case "79110":
		return "Travel agency activities", true
	case "79120":
		return "Tour operator activities", true
	case "79901":
		return "Activities of tourist guides", true
	case "79909":
		return "Other reservation service activities not elsewhere classified", true
	case "80100":
		return "Private security activities", true
	case "80200":
		return "Security systems service activities", true
	case "80300":
		return "Investigation activities", true
	case "81100":
		return "Combined facilities support activities", true
	case "81210":
		return "General cleaning of buildings", true
	case "81221":
		return "Window cleaning services", true
	case "81222":
		return "Specialised cleaning services", true
	case "81223":
		return "Furnace and chimney cleaning services", true
	case "81229":
		return "Other building and industrial cleaning activities", true
	case "81291":
		return "Disinfecting and exterminating services", true
	case "81299":
		return "Other cleaning services", true
	case "81300":
		return "Landscape service activities", true
	case "82110":
		return "Combined office administrative service activities", true
	case "82190":
		return "Photocopying, document preparation and other specialised office support activities", true
	case "82200":
		return "Activities of call centres", true
	case "82301":
		return "Activities of exhibition and fair organisers", true
	case "82302":
		return "Activities of conference organisers", true
	case "82911":
		return "Activities of collection agencies", true
	case "82912":
		return "Activities of credit bureaus", true
	case "82920":
		return "Packaging activities", true
	case "82990":
		return "Other business support service activities not elsewhere classified", true
	case "84110":
		return "General public administration activities", true
	case "84120":
		return "Regulation of health care, education, cultural and other social services, not incl. social security", true
	case "84130":
		return "Regulation of and contribution to more efficient operation of businesses", true
	case "84210":
		return "Foreign affairs", true
	case "84220":
		return "Defence activities", true
	case "84230":
		return "Justice and judicial activities", true
	case "84240":
		return "Public order and safety activities", true
	case "84250":
		return "Fire service activities", true
	case "84300":
		return "Compulsory social security activities", true
	case "85100":
		return "Pre-primary education", true
	case "85200":
		return "Primary education", true
	case "85310":
		return "General secondary education", true
	case "85320":
		return "Technical and vocational secondary education", true
	case "85410":
		return "Post-secondary non-tertiary education", true
	case "85421":
		return "First-degree level higher education", true
	case "85422":
		return "Post-graduate level higher education", true
	case "85510":
		return "Sports and recreation education", true
	case "85520":
		return "Cultural education", true
	case "85530":
		return "Driving school activities", true
	case "85590":
		return "Other education not elsewhere classified", true
	case "85600":
		return "Educational support services", true
	case "86101":
		return "Hospital activities", true
	case "86102":
		return "Medical nursing home activities", true
	case "86210":
		return "General medical practice activities", true
	case "86220":
		return "Specialists medical practice activities", true
	case "86230":
		return "Dental practice activities", true
	case "86900":
		return "Other human health activities", true
	case "87100":
		return "Residential nursing care facilities", true
	case "87200":
		return "Residential care activities for learning difficulties, mental health and substance abuse", true
	case "87300":
		return "Residential care activities for the elderly and disabled", true
	case "87900":
		return "Other residential care activities not elsewhere classified", true
	case "88100":
		return "Social work activities without accommodation for the elderly and disabled", true
	case "88910":
		return "Child day-care activities", true
	case "88990":
		return "Other social work activities without accommodation not elsewhere classified", true
	case "90010":
		return "Performing arts", true
	case "90020":
		return "Support activities to performing arts", true
	case "90030":
		return "Artistic creation", true
	case "90040":
		return "Operation of arts facilities", true
	case "91011":
		return "Library activities", true
	case "91012":
		return "Archives activities", true
	case "91020":
		return "Museums activities", true
	case "91030":
		return "Operation of historical sites and buildings and similar visitor attractions", true
	case "91040":
		return "Botanical and zoological gardens and nature reserves activities", true
	case "92000":
		return "Gambling and betting activities", true
	case "93110":
		return "Operation of sports facilities", true
	case "93120":
		return "Activities of sport clubs", true
	case "93130":
		return "Fitness facilities", true
	case "93191":
		return "Activities of racehorse owners", true
	case "93199":
		return "Other sports activities", true
	case "93210":
		return "Activities of amusement parks and theme parks", true
	case "93290":
		return "Other amusement and recreation activities not elsewhere classified", true
	case "94110":
		return "Activities of business and employers membership organisations", true
	case "94120":
		return "Activities of professional membership organisations", true
	case "94200":
		return "Activities of trade unions", true
	case "94910":
		return "Activities of religious organisations", true
	case "94920":
		return "Activities of political organisations", true
	case "94990":
		return "Activities of other membership organisations not elsewhere classified", true
	case "95110":
		return "Repair of computers and peripheral equipment", true
	case "95120":
		return "Repair of communication equipment", true
	case "95210":
		return "Repair of consumer electronics", true
	case "95220":
		return "Repair of household appliances and home and garden equipment", true
	case "95230":
		return "Repair of footwear and leather goods", true
	case "95240":
		return "Repair of furniture and home furnishings", true
	case "95250":
		return "Repair of watches, clocks and jewellery", true
	case "95290":
		return "Repair of personal and household goods not elsewhere classified", true
	case "96010":
		return "Washing and (dry-)cleaning of textile and fur products", true
	case "96020":
		return "Hairdressing and other beauty treatment", true
	case "96030":
		return "Funeral and related activities", true
	case "96040":
		return "Physical well-being activities", true
	case "96090":
		return "Other service activities not elsewhere classified", true
	case "97000":
		return "Activities of households as employers of domestic personnel", true
	case "98000":
		return "Residents property management", true
	case "98100":
		return "Undifferentiated goods-producing activities of private households for own use", true
	case "98200":
		return "Undifferentiated service-producing activities of private households for own use", true
	case "99000":
		return "Activities of extraterritorial organisations and bodies", true
	case "99999":
		return "Dormant Company", true
	}
	return "", false
}
